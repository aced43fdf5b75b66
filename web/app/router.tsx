import { type ComponentType, lazy, type LazyExoticComponent } from 'react';
import { Route, Routes } from 'react-router-dom';
import { SiteLayout } from '../features/marketing/components/site-layout';

/** A lazily loaded page from a route module's named export. */
function page<M>(load: () => Promise<M>, pick: (module: M) => ComponentType): LazyExoticComponent<ComponentType> {
  return lazy(() => load().then((module) => ({ default: pick(module) })));
}

const HomePage = page(() => import('./routes/home'), (m) => m.HomePage);
const AboutPage = page(() => import('./routes/about'), (m) => m.AboutPage);
const ContactPage = page(() => import('./routes/contact'), (m) => m.ContactPage);
const SupportPage = page(() => import('./routes/support'), (m) => m.SupportPage);
const GetStartedPage = page(() => import('./routes/get-started'), (m) => m.GetStartedPage);
const PaymentPage = page(() => import('./routes/payment'), (m) => m.PaymentPage);
const PrivacyPolicyPage = page(() => import('./routes/privacy-policy'), (m) => m.PrivacyPolicyPage);
const TermsOfServicePage = page(() => import('./routes/terms-of-service'), (m) => m.TermsOfServicePage);
const CookiePolicyPage = page(() => import('./routes/cookie-policy'), (m) => m.CookiePolicyPage);
const DealerLoginPage = page(() => import('./routes/dealer-login'), (m) => m.DealerLoginPage);
const ResetPasswordPage = page(() => import('./routes/reset-password'), (m) => m.ResetPasswordPage);
const RatePage = page(() => import('./routes/rate'), (m) => m.RatePage);
const SimpleTestPage = page(() => import('./routes/simple-test'), (m) => m.SimpleTestPage);
const DealerDashboardPage = page(() => import('./routes/dealer-dashboard'), (m) => m.DealerDashboardPage);
const AdminPage = page(() => import('./routes/admin'), (m) => m.AdminPage);
const NotFoundPage = page(() => import('./routes/not-found'), (m) => m.NotFoundPage);

/**
 * Every route is lazy: a page's code loads only when it is visited. The public pages share the
 * site layout (header, footer, Why AI? modal, cookie banner), which is small and ships with the entry.
 * Declarative routes (not the data router) keep about 10 KB of router code off the home page.
 */
export function AppRoutes() {
  return (
    <Routes>
      <Route element={<SiteLayout />}>
        <Route path="/" element={<HomePage />} />
        <Route path="/about" element={<AboutPage />} />
        <Route path="/contact" element={<ContactPage />} />
        <Route path="/support" element={<SupportPage />} />
        <Route path="/get-started" element={<GetStartedPage />} />
        <Route path="/payment" element={<PaymentPage />} />
        <Route path="/privacy-policy" element={<PrivacyPolicyPage />} />
        <Route path="/terms-of-service" element={<TermsOfServicePage />} />
        <Route path="/cookie-policy" element={<CookiePolicyPage />} />
        <Route path="/dealer-login" element={<DealerLoginPage />} />
        <Route path="/reset-password" element={<ResetPasswordPage />} />
        <Route path="/rate" element={<RatePage />} />
        <Route path="/simple-test" element={<SimpleTestPage />} />
        <Route path="*" element={<NotFoundPage />} />
      </Route>
      {/* The dashboard and its deep links (a lead: /admin/leads/:kind/:id) are one lazy route. */}
      <Route path="/admin/*" element={<AdminPage />} />
      {/* The dealer dashboard has its own chrome (tabs and LOGOUT), not the marketing header. */}
      <Route path="/dealer-dashboard" element={<DealerDashboardPage />} />
    </Routes>
  );
}
