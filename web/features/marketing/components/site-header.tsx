import { Menu, X } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { Link, NavLink, useLocation } from 'react-router-dom';
import { brand } from '../../../../api/contract/brand';
import { buttonClasses } from '../../../components/ui/button';
import { useWhyAiModal } from '../why-ai-store';
import { Logo } from './logo';

const navLinks = [
  { to: '/about', label: 'About' },
  { to: '/contact', label: 'Contact' },
  { to: '/support', label: 'Support' },
  { to: '/dealer-login', label: 'Dealer Login' },
] as const;

const linkClasses = ({ isActive }: { isActive: boolean }) =>
  `rounded-md px-3 py-2 text-sm font-medium transition-colors hover:text-brand ${isActive ? 'text-brand' : 'text-slate-700'}`;

/** The header of every public page; below `md` the links fold into a toggled menu. */
export function SiteHeader() {
  const [menuOpen, setMenuOpen] = useState(false);
  const openWhyAi = useWhyAiModal((state) => state.setOpen);
  const menuId = useId();
  const toggleRef = useRef<HTMLButtonElement>(null);
  const { pathname } = useLocation();

  // A navigation closes the menu.
  useEffect(() => setMenuOpen(false), [pathname]);

  useEffect(() => {
    if (!menuOpen) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        setMenuOpen(false);
        toggleRef.current?.focus();
      }
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [menuOpen]);

  return (
    <header className="sticky top-0 z-40 border-b border-slate-200/80 bg-white/95 backdrop-blur supports-[backdrop-filter]:bg-white/80">
      <nav aria-label="Main" className="mx-auto flex h-16 max-w-7xl items-center justify-between gap-4 px-4 sm:px-6 lg:px-8">
        <Link to="/" className="rounded-md" aria-label={`${brand.product} home`}>
          <Logo />
        </Link>

        <div className="hidden items-center gap-1 md:flex">
          <button type="button" className={linkClasses({ isActive: false })} onClick={() => openWhyAi(true)} data-why-ai-trigger="">
            Why AI?
          </button>
          {navLinks.map((link) => (
            <NavLink key={link.to} to={link.to} className={linkClasses}>
              {link.label}
            </NavLink>
          ))}
          <Link to="/get-started" className={buttonClasses('cta', 'sm', 'ml-3 px-4')}>
            Get Started
          </Link>
        </div>

        <button
          ref={toggleRef}
          type="button"
          className="inline-flex size-11 items-center justify-center rounded-lg text-slate-800 hover:bg-slate-100 md:hidden"
          aria-expanded={menuOpen}
          aria-controls={menuId}
          aria-label={menuOpen ? 'Close menu' : 'Open menu'}
          onClick={() => setMenuOpen((open) => !open)}
        >
          {menuOpen ? <X className="size-6" aria-hidden="true" /> : <Menu className="size-6" aria-hidden="true" />}
        </button>
      </nav>

      {menuOpen ? (
        <div id={menuId} className="border-t border-slate-200 bg-white px-4 pt-2 pb-4 shadow-lg md:hidden">
          <ul className="grid gap-1">
            <li>
              <button
                type="button"
                className="block w-full rounded-lg px-3 py-3 text-left text-base font-medium text-slate-800 hover:bg-slate-50 hover:text-brand"
                onClick={() => {
                  // Opening the modal from the menu also closes the menu.
                  setMenuOpen(false);
                  openWhyAi(true);
                }}
              >
                Why AI?
              </button>
            </li>
            {navLinks.map((link) => (
              <li key={link.to}>
                <NavLink
                  to={link.to}
                  className={({ isActive }) =>
                    `block rounded-lg px-3 py-3 text-base font-medium hover:bg-slate-50 hover:text-brand ${isActive ? 'text-brand' : 'text-slate-800'}`
                  }
                >
                  {link.label}
                </NavLink>
              </li>
            ))}
            <li className="pt-2">
              <Link to="/get-started" className={buttonClasses('cta', 'md', 'w-full')}>
                Get Started
              </Link>
            </li>
          </ul>
        </div>
      ) : null}
    </header>
  );
}
