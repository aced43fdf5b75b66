/**
 * Every local-storage key of the site, in one place: the features read and write them and the
 * cookie policy names them. Browsers already hold these names (most date from the first version of the site), so
 * renaming one loses what visitors and staff have stored.
 */
export const storageKeys = {
  /** The visitor's chat conversation, `session_<timestamp>_<random>`. */
  chatSessionId: 'chatSessionId',
  /** Session storage: the pages of this visit (origin and path, with the time), sent with a conversation's first message. */
  chatVisitPages: 'chatVisitPages',
  /** The cookie banner's choice. */
  cookieConsent: 'lw_cookie_consent',
  /** A copy of the submitted Get Started application, read by /payment. */
  dealerApplication: 'dealerapp_data',
  /** The staff session mirror flags: they only mirror the server's staff session, which is the judge. */
  adminAuthenticated: 'adminAuthenticated',
  adminLastActivity: 'adminLastActivity',
  /** Set once staff have been asked for notifications, so they are asked only once. */
  adminNotificationAsked: 'adminNotificationAsked',
  /** Staff text not yet sent or saved, one key per staff email and conversation or lead (see adminDraftKey). */
  adminDraftPrefix: 'adminDraft:',
} as const;

/** The key of one staff member's draft: `subject` names a reply (`chat:<sessionId>`) or a lead note (`note:<kind>:<id>`). */
export function adminDraftKey(email: string, subject: string): string {
  return `${storageKeys.adminDraftPrefix}${email.toLowerCase()}:${subject}`;
}
