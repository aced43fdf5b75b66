import { brand } from '../../../api/contract/brand';
import { plans } from './content';

/**
 * The one list of the site's pages: each page's title and description, and whether it is prerendered
 * at build time and indexed. The build (scripts/vite/prerender.ts) writes each prerendered page's HTML,
 * robots.txt, sitemap.xml and the server's page map from it; SiteLayout sets the tab's title from it.
 */

export interface Faq {
  question: string;
  answer: string;
}

export interface SiteRoute {
  path: string;
  /** The page's own name; the home page has none and shows the product's tagline. */
  title: string | null;
  description: string;
  /**
   * `public`: prerendered at build time, in the sitemap. `private`: client-only (an SPA shell marked
   * noindex), disallowed in robots.txt; with `prefix`, every path under it too (/admin/leads/...).
   */
  kind: 'public' | 'private';
  prefix?: boolean;
  /** Questions and answers shown on the page, and given to search engines as FAQPage data. */
  faq?: readonly Faq[];
}

const [starter, professional, enterprise] = plans;

export const supportFaqs: readonly Faq[] = [
  {
    question: 'How fast can my new website go live?',
    answer: 'Most dealerships are live 7 to 14 days after applying, and some in as few as 5 days.',
  },
  {
    question: 'What does it cost?',
    answer: `Plans start at $${starter?.price ?? 99} a month for up to 50 cars, $${professional?.price ?? 199} for up to 100 cars and $${enterprise?.price ?? 299} for larger lots, with every feature included and no extra plugin costs.`,
  },
  {
    question: 'Can my inventory appear on the big listing sites?',
    answer: `Yes. Your inventory feed can be exported to ${brand.feedExportDestinations.join(', ')}.`,
  },
  {
    question: 'How do I reach support?',
    answer: `Start a live chat on this page, call ${brand.phone} (urgent issues are answered 24/7), email ${brand.supportEmail} or open a ticket below.`,
  },
];

export const siteRoutes: readonly SiteRoute[] = [
  {
    path: '/',
    title: null,
    description:
      'Lotwise builds AI-powered websites for independent pre-owned car dealerships: more leads, automated follow-up, live in as fast as 5 days, from $2 per car.',
    kind: 'public',
  },
  {
    path: '/about',
    title: 'About',
    description:
      'Lotwise helps independent pre-owned dealerships win online with AI-powered websites: our mission, our values and the team behind 350+ dealer sites.',
    kind: 'public',
  },
  {
    path: '/contact',
    title: 'Contact Us',
    description:
      'Questions about pricing, a demo or your current dealer website? Call, email or send Lotwise a message: a real person replies within 24 hours.',
    kind: 'public',
  },
  {
    path: '/support',
    title: 'Support Center',
    description:
      'Lotwise support for dealerships, 24/7: live chat, phone and email, answers to common questions, and support tickets for anything on your website.',
    kind: 'public',
    faq: supportFaqs,
  },
  {
    path: '/get-started',
    title: 'Get Started',
    description:
      'Apply for your AI-powered dealer website: tell us about your dealership, book a strategy call, and go live in 7-14 days with Lotwise.',
    kind: 'public',
  },
  {
    path: '/privacy-policy',
    title: 'Privacy Policy',
    description: 'How Lotwise collects, uses and protects the information of dealerships and their customers, and the choices you have.',
    kind: 'public',
  },
  {
    path: '/terms-of-service',
    title: 'Terms of Service',
    description: 'The terms under which Lotwise provides its AI-powered dealer websites, chat and related services.',
    kind: 'public',
  },
  {
    path: '/cookie-policy',
    title: 'Cookie Policy',
    description: 'Which cookies and browser storage the Lotwise site uses, why, and how to accept or reject the non-essential ones.',
    kind: 'public',
  },
  { path: '/payment', title: 'Complete Your Setup', description: 'Complete your Lotwise setup.', kind: 'private' },
  { path: '/dealer-login', title: 'Dealer Login', description: 'Sign in to your Lotwise dealer dashboard.', kind: 'private' },
  { path: '/reset-password', title: 'Reset Password', description: 'Choose a new password for your dealer account.', kind: 'private' },
  { path: '/dealer-dashboard', title: 'Dealer Dashboard', description: 'Your Lotwise dealer dashboard.', kind: 'private' },
  { path: '/rate', title: 'Rate Your Chat', description: 'Tell Lotwise how your chat went.', kind: 'private' },
  { path: '/simple-test', title: 'Simple Login Test', description: 'A sign-in test page.', kind: 'private' },
  { path: '/admin', title: 'Staff Dashboard', description: 'The Lotwise staff dashboard.', kind: 'private', prefix: true },
];

/** What any path not in the list shows (and the server answers with status 404). */
export const notFoundRoute: SiteRoute = {
  path: '/404',
  title: 'Page Not Found',
  description: "This page doesn't exist. Find your way back to Lotwise's AI-powered websites for pre-owned dealerships.",
  kind: 'private',
};

/** The route a path belongs to; null for a path the site does not have. */
export function findSiteRoute(pathname: string): SiteRoute | null {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return siteRoutes.find((route) => route.path === path || (route.prefix === true && path.startsWith(`${route.path}/`))) ?? null;
}

/** The text of the browser tab (and of search results and link previews). */
export function documentTitle(route: SiteRoute): string {
  return route.title ? `${route.title} · ${brand.product}` : `${brand.product} · AI-powered websites for pre-owned dealerships`;
}
