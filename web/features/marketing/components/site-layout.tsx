import { Suspense, useEffect } from 'react';
import { Outlet, useLocation } from 'react-router-dom';
import { documentTitle, findSiteRoute, notFoundRoute } from '../routes';
import { CookieBanner } from './cookie-banner';
import { SiteFooter } from './site-footer';
import { SiteHeader } from './site-header';
import { WhyAiModalHost } from './why-ai-modal-host';

/** A new page starts at its top; a link to an anchor scrolls to that anchor instead. */
function ScrollToTop() {
  const { pathname, hash } = useLocation();
  useEffect(() => {
    if (!hash) window.scrollTo(0, 0);
  }, [pathname, hash]);
  return null;
}

/** The tab's title, from the site's route list (React 19 hoists `<title>` into the head). */
function RouteTitle() {
  const { pathname } = useLocation();
  return <title>{documentTitle(findSiteRoute(pathname) ?? notFoundRoute)}</title>;
}

/** Header, page and footer of every public page. */
export function SiteLayout() {
  return (
    <div className="flex min-h-dvh flex-col">
      <RouteTitle />
      <a
        href="#main"
        className="sr-only z-50 rounded-md bg-white px-4 py-2 font-semibold text-brand focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
      >
        Skip to content
      </a>
      <SiteHeader />
      <main id="main" className="flex-1">
        {/* The header and footer stay on screen while a page's code loads. */}
        <Suspense fallback={<div className="min-h-dvh" />}>
          <Outlet />
        </Suspense>
      </main>
      <SiteFooter />
      <WhyAiModalHost />
      <CookieBanner />
      <ScrollToTop />
    </div>
  );
}
