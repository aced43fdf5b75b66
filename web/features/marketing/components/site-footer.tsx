import { Mail, Phone } from 'lucide-react';
import { Link } from 'react-router-dom';
import { brand } from '../../../../api/contract/brand';
import { useCookieConsent } from '../cookie-consent-store';
import { useWhyAiModal } from '../why-ai-store';
import { Logo } from './logo';

const footerLink = 'text-sm text-slate-300 transition-colors hover:text-white';

export function SiteFooter() {
  const openWhyAi = useWhyAiModal((state) => state.setOpen);
  const reopenConsent = useCookieConsent((state) => state.reopen);
  return (
    <footer className="bg-slate-950 text-slate-300">
      <div className="mx-auto grid max-w-7xl gap-10 px-4 py-14 sm:px-6 md:grid-cols-[2fr_1fr_1fr] lg:px-8">
        <div className="max-w-sm">
          <Link to="/" className="inline-block rounded-md" aria-label={`${brand.product} home`}>
            <Logo inverted />
          </Link>
          <p className="mt-4 text-sm leading-6 text-slate-300">
            AI-powered website automation for pre-owned dealerships. More leads, faster follow-up and a site that sells
            while you sleep, for a fraction of what the big vendors charge.
          </p>
          <div className="mt-5 grid gap-2 text-sm">
            <a href={brand.phoneHref} className={`inline-flex items-center gap-2 ${footerLink}`}>
              <Phone className="size-4" aria-hidden="true" /> {brand.phone}
            </a>
            <a href={`mailto:${brand.supportEmail}`} className={`inline-flex items-center gap-2 ${footerLink}`}>
              <Mail className="size-4" aria-hidden="true" /> {brand.supportEmail}
            </a>
          </div>
        </div>
        <div>
          <h2 className="text-sm font-semibold tracking-wide text-white uppercase">Company</h2>
          <ul className="mt-4 grid gap-3">
            <li>
              <button type="button" className={footerLink} onClick={() => openWhyAi(true)}>
                Why AI?
              </button>
            </li>
            <li>
              <Link to="/about" className={footerLink}>
                About
              </Link>
            </li>
            <li>
              <Link to="/contact" className={footerLink}>
                Contact
              </Link>
            </li>
          </ul>
        </div>
        <div>
          <h2 className="text-sm font-semibold tracking-wide text-white uppercase">Support</h2>
          <ul className="mt-4 grid gap-3">
            <li>
              <Link to="/support" className={footerLink}>
                24/7 Support
              </Link>
            </li>
            <li>
              <Link to="/dealer-login" className={footerLink}>
                Dealer Login
              </Link>
            </li>
          </ul>
        </div>
      </div>
      <div className="border-t border-slate-800">
        <div className="mx-auto flex max-w-7xl flex-col gap-4 px-4 py-6 text-sm sm:px-6 md:flex-row md:items-center md:justify-between lg:px-8">
          <p className="text-slate-400">
            © {brand.copyrightYear} {brand.product}. All rights reserved.
          </p>
          <ul className="flex flex-wrap gap-x-6 gap-y-2">
            <li>
              <Link to="/privacy-policy" className={footerLink}>
                Privacy Policy
              </Link>
            </li>
            <li>
              <Link to="/terms-of-service" className={footerLink}>
                Terms of Service
              </Link>
            </li>
            <li>
              <Link to="/cookie-policy" className={footerLink}>
                Cookie Policy
              </Link>
            </li>
            <li>
              <button type="button" className={footerLink} onClick={reopenConsent}>
                Cookie Settings
              </button>
            </li>
          </ul>
        </div>
      </div>
    </footer>
  );
}
