import { create } from 'zustand';
import { storageKeys } from '../../lib/storage-keys';

export interface CookieConsent {
  /** Essential cookies are always on: the site cannot work without them. */
  essential: true;
  analytics: boolean;
  functional: boolean;
  marketing: boolean;
  decidedAt: string;
}

function readStoredConsent(): CookieConsent | null {
  try {
    const raw = localStorage.getItem(storageKeys.cookieConsent);
    if (!raw) return null;
    const parsed = JSON.parse(raw) as Partial<CookieConsent>;
    return typeof parsed.decidedAt === 'string' ? (parsed as CookieConsent) : null;
  } catch {
    return null;
  }
}

interface CookieConsentState {
  consent: CookieConsent | null;
  /** True while the banner is shown: no choice yet, or reopened from the footer. */
  bannerOpen: boolean;
  choose: (all: boolean) => void;
  reopen: () => void;
}

export const useCookieConsent = create<CookieConsentState>((set) => {
  const consent = typeof window === 'undefined' ? null : readStoredConsent();
  return {
    consent,
    bannerOpen: consent === null,
    choose: (all) => {
      const next: CookieConsent = {
        essential: true,
        analytics: all,
        functional: all,
        marketing: all,
        decidedAt: new Date().toISOString(),
      };
      try {
        localStorage.setItem(storageKeys.cookieConsent, JSON.stringify(next));
      } catch {
        // Storage disabled: the choice holds for this visit only.
      }
      set({ consent: next, bannerOpen: false });
    },
    reopen: () => set({ bannerOpen: true }),
  };
});
