import { z } from 'zod';

/** Where the site is reached when PUBLIC_URL is not set. */
export const defaultPublicUrl = 'http://localhost:3000';

/**
 * What the build writes where the site's own address goes (canonical and Open Graph links, JSON-LD,
 * robots.txt, the sitemap): the server puts its PUBLIC_URL in its place once, at start, so the address
 * an operator sets in `.env` is the one search engines read, whatever the build was made with.
 */
export const publicUrlPlaceholder = 'https://public-url.lotwise.invalid';

/**
 * The page map the web build writes beside the built app (`pages/pages.json`) and the server reads:
 * which path is answered by which prerendered file, which paths get the client-only shell, and the
 * other documents naming the site's address (robots.txt, the sitemap) with their content type.
 */
export const webPagesManifestSchema = z.object({
  pages: z.array(z.object({ path: z.string(), file: z.string() })),
  clientOnly: z.array(z.object({ path: z.string(), prefix: z.boolean() })),
  notFound: z.string(),
  documents: z.array(z.object({ path: z.string(), file: z.string(), type: z.string() })),
});

export type WebPagesManifest = z.infer<typeof webPagesManifestSchema>;

/** Where the manifest sits in the built web app's folder. */
export const webPagesManifestFile = 'pages/pages.json';
