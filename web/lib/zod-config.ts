import { config } from 'zod';

/**
 * Zod probes `Function('')` to decide whether to compile its object parsers. The CSP refuses eval
 * (script-src 'self'), so the probe fails and Chrome reports a CSP issue on every page (Lighthouse's
 * best practices counts it). The interpreted parsers are fast enough for the forms.
 * Imported first by main.tsx, before any schema parses.
 */
config({ jitless: true });
