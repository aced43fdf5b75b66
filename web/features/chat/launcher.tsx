import { type ComponentType, useEffect, useState } from 'react';
import { timings } from '../../../api/contract/brand';

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
 * Mounts the chat widget 2 s after the page loads (spec section 9), as a separate chunk so the
 * widget and socket.io-client cost nothing on the first load.
 */
export function ChatLauncher({ pathname }: { pathname: string }) {
  const hidden = chatHiddenOn(pathname);
  const [widget, setWidget] = useState<{ Widget: ComponentType; openPanel: WidgetModule['openPanel'] } | null>(null);
  const [wanted, setWanted] = useState(openRequested);

  useEffect(() => {
    const listener = () => setWanted(true);
    openListeners.add(listener);
    const timer = setTimeout(() => setWanted(true), timings.chatButtonDelayMs);
    return () => {
      openListeners.delete(listener);
      clearTimeout(timer);
    };
  }, []);

  useEffect(() => {
    if (!wanted || hidden || widget) return;
    let cancelled = false;
    import('./components/chat-widget').then(
      (module) => !cancelled && setWidget({ Widget: module.ChatWidget, openPanel: module.openPanel }),
      (error: unknown) => console.error('Chat failed to load', error),
    );
    return () => {
      cancelled = true;
    };
  }, [wanted, hidden, widget]);

  // An open request that came before (or after) the widget loaded.
  useEffect(() => {
    const openIfRequested = () => {
      if (widget && openRequested && !hidden) {
        openRequested = false;
        widget.openPanel();
      }
    };
    openIfRequested();
    openListeners.add(openIfRequested);
    return () => {
      openListeners.delete(openIfRequested);
    };
  }, [widget, hidden]);

  if (hidden || !widget) return null;
  return <widget.Widget />;
}
