import { Link } from 'react-router-dom';
import { buttonClasses } from '../../../components/ui/button';
import { useHydrated } from '../../../lib/use-hydrated';
import { useCookieConsent } from '../cookie-consent-store';

/**
 * The consent banner the cookie policy describes: essential cookies always on; the visitor
 * accepts all or rejects the non-essential ones, and the choice is remembered. The stored choice is
 * the browser's: the banner appears after hydration, never in the prerendered HTML.
 */
export function CookieBanner() {
  const bannerOpen = useCookieConsent((state) => state.bannerOpen);
  const choose = useCookieConsent((state) => state.choose);
  const hydrated = useHydrated();
  if (!bannerOpen || !hydrated) return null;
  // From lg the hero's buttons sit at the left of a short screen (1280x720): the banner takes the
  // right, clear of them and of the chat button.
  return (
    <section
      aria-label="Cookie consent"
      className="fixed right-20 bottom-3 left-3 z-40 max-w-md rounded-2xl border border-slate-200 bg-white p-3 shadow-2xl sm:right-auto sm:bottom-5 sm:left-5 sm:p-5 lg:right-24 lg:left-auto"
    >
      <h2 className="text-sm font-semibold text-slate-900 sm:text-base">We value your privacy</h2>
      {/* On a phone the banner says it in two lines, so the hero's buttons stay in sight above it. */}
      <p className="mt-1 text-xs leading-5 text-slate-700 sm:mt-2 sm:text-sm sm:leading-6">
        <span className="sm:hidden">Essential cookies run this site; others only with your permission.</span>
        <span className="hidden sm:inline">
          We use essential cookies to run this site. With your permission we would also use analytics, functional and
          marketing cookies.
        </span>{' '}
        Read our{' '}
        <Link to="/cookie-policy" className="font-medium text-brand underline underline-offset-2">
          Cookie Policy
        </Link>
        .
      </p>
      <div className="mt-2 flex flex-wrap gap-2 sm:mt-4">
        <button type="button" className={buttonClasses('brand', 'sm', 'max-sm:px-2.5 max-sm:text-xs')} onClick={() => choose(true)}>
          Accept all
        </button>
        <button type="button" className={buttonClasses('outline', 'sm', 'max-sm:px-2.5 max-sm:text-xs')} onClick={() => choose(false)}>
          Reject non-essential
        </button>
      </div>
    </section>
  );
}
