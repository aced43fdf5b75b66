import { StrictMode } from 'react';
import { prerender } from 'react-dom/static';
import { StaticRouter } from 'react-router-dom';
import { AppContent } from './app/App';
import { Toaster } from './components/ui/toast';

export { documentTitle, notFoundRoute, siteRoutes } from './features/marketing/routes';

function render(location: string) {
  return prerender(
    <StrictMode>
      <StaticRouter location={location}>
        <AppContent />
      </StaticRouter>
      <Toaster />
    </StrictMode>,
    // No boundary is split out of the page: that would need an inline script to put it back, which the CSP refuses.
    { progressiveChunkSize: Number.MAX_SAFE_INTEGER },
  );
}

/**
 * A page's HTML at `location`, for the build to write into its file (scripts/vite/prerender.ts).
 * The same tree as main.tsx's, with a StaticRouter, so hydrateRoot finds what it renders. The first
 * pass loads the lazy route's code; the second renders with it loaded, so no Suspense boundary is
 * left pending (its content would arrive later, swapped in by an inline script).
 */
export async function renderPage(location: string): Promise<string> {
  await (await render(location)).prelude.cancel();
  const { prelude } = await render(location);
  const html = await new Response(prelude).text();
  if (html.includes('<script')) throw new Error(`prerender: ${location} needs an inline script (a Suspense boundary left pending)`);
  return html;
}
