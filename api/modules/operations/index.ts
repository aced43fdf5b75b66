/**
 * Operating it (DESIGN.md 12): data requests (export or erase everything stored for one email),
 * retention (RETENTION_DAYS, a daily job) and dead jobs, for admins. app.ts creates `personalData`,
 * schedules retention, and registers `operationsRoutes` in the cookie-session scope.
 */
export { personalData, scheduleRetention, type PersonalData } from './personal-data';
export { operationsRoutes } from './operations.routes';
