/** The team's canned replies screen, a sub-route of the one `/admin/*` route. */
export const cannedRepliesPath = '/admin/canned-replies';
