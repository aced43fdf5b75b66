import { useCallback, useSyncExternalStore } from 'react';

/** Phones: below Tailwind's `sm`, where a table's columns cannot fit side by side. */
export const phoneQuery = '(max-width: 639px)';

/** Whether a CSS media query matches now, following it as the window changes; false where there is no matchMedia (jsdom). */
export function useMediaQuery(query: string): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      if (typeof window.matchMedia !== 'function') return () => {};
      const list = window.matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    [query],
  );
  return useSyncExternalStore(subscribe, () => typeof window.matchMedia === 'function' && window.matchMedia(query).matches);
}
