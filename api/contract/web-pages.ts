import { z } from 'zod';

/** Where the site is reached when PUBLIC_URL is not set: the server's default, and the build's for canonical links. */
export const defaultPublicUrl = 'http://localhost:3000';

/**
 * The page map the web build writes beside the built app (`pages/pages.json`) and the server reads:
 * which path is answered by which prerendered file, which paths get the client-only shell, and the
 * PUBLIC_URL the pages' canonical links were built with.
 */
export const webPagesManifestSchema = z.object({
  publicUrl: z.string(),
  pages: z.array(z.object({ path: z.string(), file: z.string() })),
  clientOnly: z.array(z.object({ path: z.string(), prefix: z.boolean() })),
  notFound: z.string(),
});

export type WebPagesManifest = z.infer<typeof webPagesManifestSchema>;

/** Where the manifest sits in the built web app's folder. */
export const webPagesManifestFile = 'pages/pages.json';
