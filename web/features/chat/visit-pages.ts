import { chatLimits } from '../../../api/contract/brand';
import type { ChatMessageInput } from '../../../api/contract/chat';
import { storageKeys } from '../../lib/storage-keys';

type VisitPage = NonNullable<ChatMessageInput['pages']>[number];

const isVisitPage = (page: unknown): page is VisitPage =>
  typeof (page as VisitPage | null)?.url === 'string' && typeof (page as VisitPage).at === 'string';

/** The pages of this visit, oldest first: in session storage, so a reload keeps them and each tab has its own. */
export function visitPages(): VisitPage[] {
  try {
    const stored: unknown = JSON.parse(sessionStorage.getItem(storageKeys.chatVisitPages) ?? '[]');
    return Array.isArray(stored) ? stored.filter(isVisitPage) : [];
  } catch {
    return [];
  }
}

/** The visitor's IANA time zone; none where the browser cannot tell (ICU's Etc/Unknown, which the server refuses). */
export function visitorTimeZone(): string | undefined {
  const { timeZone } = Intl.DateTimeFormat().resolvedOptions();
  return timeZone === 'Etc/Unknown' ? undefined : timeZone;
}

/**
 * Adds the page shown now (its origin and path: a query or fragment may carry a secret) with the time,
 * keeping the last 20. False when nothing was added: the same page again (a reload), or an address too long to send.
 */
export function addVisitPage(url: string): boolean {
  const pages = visitPages();
  if (pages.at(-1)?.url === url || url.length > chatLimits.pageUrlMaxLength) return false;
  pages.push({ url, at: new Date().toISOString() });
  try {
    sessionStorage.setItem(storageKeys.chatVisitPages, JSON.stringify(pages.slice(-chatLimits.pagesPerVisit)));
  } catch {
    // Storage may be blocked: the visit is then not kept.
  }
  return true;
}
