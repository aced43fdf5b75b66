import { useEffect, useState } from 'react';
import { timings } from '../../../api/contract/brand';
import { chatLinkQueryParam } from '../../../api/contract/paths';

// Kept free of the store and socket.io-client: this file is on the first load of every page.

let openRequested = false;
const openListeners = new Set<() => void>();

/**
 * Opens the chat panel from anywhere (the Support page's "Start Live Chat"): loads the widget now
 * if the 2 s delay has not passed yet, then opens it.
 */
export function openChat(): void {
  openRequested = true;
  for (const listener of openListeners) listener();
}

/** Areas with their own screens and no visitor chat. */
export function chatHiddenOn(pathname: string): boolean {
  return /^\/(admin|dealer-dashboard)(\/|$)/.test(pathname);
}

type WidgetModule = typeof import('./components/chat-widget');

/**
 * Mounts the chat widget 2 s after the page loads, as a separate chunk so the
 * widget and socket.io-client cost nothing on the first load.
 */
export function ChatLauncher({ pathname }: { pathname: string }) {
  const hidden = chatHiddenOn(pathname);
  const [Widget, setWidget] = useState<WidgetModule['ChatWidget'] | null>(null);
  const [wanted, setWanted] = useState(openRequested);
  /** Open requests handed to the widget: each rise opens its panel. */
  const [openRequests, setOpenRequests] = useState(0);

  // A mailed conversation link (`/?chat=<token>`): the widget loads now and opens on it.
  useEffect(() => {
    if (new URLSearchParams(window.location.search).has(chatLinkQueryParam)) openChat();
  }, []);

  useEffect(() => {
    const timer = setTimeout(() => setWanted(true), timings.chatButtonDelayMs);
    return () => clearTimeout(timer);
  }, []);

  useEffect(() => {
    if (!wanted || hidden || Widget) return;
    let cancelled = false;
    import('./components/chat-widget').then(
      (module) => !cancelled && setWidget(() => module.ChatWidget),
      (error: unknown) => console.error('Chat failed to load', error),
    );
    return () => {
      cancelled = true;
    };
  }, [wanted, hidden, Widget]);

  // An open request, made before or after the widget loaded: load it now, and open it once it is shown.
  useEffect(() => {
    const takeOpenRequest = () => {
      if (!openRequested) return;
      setWanted(true);
      if (Widget && !hidden) {
        openRequested = false;
        setOpenRequests((count) => count + 1);
      }
    };
    takeOpenRequest();
    openListeners.add(takeOpenRequest);
    return () => {
      openListeners.delete(takeOpenRequest);
    };
  }, [Widget, hidden]);

  if (hidden || !Widget) return null;
  return <Widget openRequests={openRequests} pathname={pathname} />;
}
