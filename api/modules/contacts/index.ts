/** One contact, one timeline (DESIGN.md 11): every lead and conversation with the same email. */
export { contactRoutes } from './contacts.routes';
