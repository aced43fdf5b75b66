import type { ComponentType } from 'react';
import { createBrowserRouter } from 'react-router-dom';
import { prefetchAdminData } from '../features/admin/api/prefetch';
import { SiteLayout } from '../features/marketing/components/site-layout';

/** Adapts a route module's named page export to the router's `lazy` shape. */
function page<M>(load: () => Promise<M>, pick: (module: M) => ComponentType) {
  return () => load().then((module) => ({ Component: pick(module) }));
}

/**
 * Every route is lazy: a page's code loads only when it is visited. The public pages share the
 * site layout (header, footer, Why AI? modal, cookie banner), which is small and ships with the entry.
 */
export const router = createBrowserRouter([
  {
    Component: SiteLayout,
    children: [
      { path: '/', lazy: page(() => import('./routes/home'), (m) => m.HomePage) },
      { path: '/about', lazy: page(() => import('./routes/about'), (m) => m.AboutPage) },
      { path: '/contact', lazy: page(() => import('./routes/contact'), (m) => m.ContactPage) },
      { path: '/support', lazy: page(() => import('./routes/support'), (m) => m.SupportPage) },
      { path: '/get-started', lazy: page(() => import('./routes/get-started'), (m) => m.GetStartedPage) },
      { path: '/payment', lazy: page(() => import('./routes/payment'), (m) => m.PaymentPage) },
      { path: '/privacy-policy', lazy: page(() => import('./routes/privacy-policy'), (m) => m.PrivacyPolicyPage) },
      { path: '/terms-of-service', lazy: page(() => import('./routes/terms-of-service'), (m) => m.TermsOfServicePage) },
      { path: '/cookie-policy', lazy: page(() => import('./routes/cookie-policy'), (m) => m.CookiePolicyPage) },
      { path: '/dealer-login', lazy: page(() => import('./routes/dealer-login'), (m) => m.DealerLoginPage) },
      { path: '/reset-password', lazy: page(() => import('./routes/reset-password'), (m) => m.ResetPasswordPage) },
      { path: '/simple-test', lazy: page(() => import('./routes/simple-test'), (m) => m.SimpleTestPage) },
      { path: '*', lazy: page(() => import('./routes/not-found'), (m) => m.NotFoundPage) },
    ],
  },
  {
    path: '/admin',
    lazy: () => {
      // The first screen's data loads while the admin bundle downloads, not after it.
      prefetchAdminData();
      return import('./routes/admin').then((module) => ({ Component: module.AdminPage }));
    },
  },
  // The dealer dashboard has its own chrome (tabs and LOGOUT), not the marketing header.
  { path: '/dealer-dashboard', lazy: page(() => import('./routes/dealer-dashboard'), (m) => m.DealerDashboardPage) },
]);
