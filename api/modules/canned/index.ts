/** Canned replies (DESIGN.md 11): the team's list of title + text, read by any staff, written by admins. */
export { cannedReplyRoutes } from './canned.routes';
