import { useEffect, useEffectEvent } from 'react';

/** Where a key press is typing, not a command: a field, a select, an editable region. */
function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || target.closest('input, textarea, select, [contenteditable="true"]') !== null;
}

/** What j/k move between in a list: a lead's row (it opens on Enter), a conversation's View & Reply. */
const itemSelector = 'tr[data-row-key][tabindex="0"], button[data-view-session]';

function shownList(): HTMLElement | undefined {
  const tables = [...document.querySelectorAll<HTMLElement>('[role="table"]')];
  return tables.find((table) => table.closest('[hidden]') === null && table.querySelector(itemSelector) !== null);
}

function rowIndexOf(item: HTMLElement): number {
  return Number(item.closest('[data-row-index]')?.getAttribute('data-row-index') ?? -1);
}

/** Moves the selection of the shown list by `step` rows (1: j, -1: k); from nothing selected, to the first row. */
export function moveListSelection(step: 1 | -1): boolean {
  const list = shownList();
  if (!list) return false;
  const items = [...list.querySelectorAll<HTMLElement>(itemSelector)].sort((a, b) => rowIndexOf(a) - rowIndexOf(b));
  if (items.length === 0) return false;
  const active = document.activeElement;
  const current = items.findIndex((item) => item === active || (active instanceof HTMLElement && item.closest('[data-row-index]')?.contains(active)));
  const next = current === -1 ? items[0]! : items[Math.min(items.length - 1, Math.max(0, current + step))]!;
  next.focus();
  next.scrollIntoView?.({ block: 'nearest' });
  return true;
}

/**
 * The lists' keys (DESIGN.md 11): `j`/`k` move the selection, `Enter` opens it (the row's or the
 * button's own), `Esc` closes the open conversation or lead, whose row then gets the focus again
 * (the dashboard does that). Never while typing, nor with a dialog open or a modifier held.
 */
export function useListKeys(closeOpen: () => boolean): void {
  const close = useEffectEvent(closeOpen);
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey || isTyping(event.target)) return;
      if (document.querySelector('[role="dialog"], [role="alertdialog"]')) return;
      if ((event.key === 'j' || event.key === 'k') && moveListSelection(event.key === 'j' ? 1 : -1)) event.preventDefault();
      else if (event.key === 'Escape' && close()) event.preventDefault();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, []);
}
