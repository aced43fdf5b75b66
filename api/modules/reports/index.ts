/** Reports (DESIGN.md 11): conversations, response and resolution times, ratings and leads over a date range. */
export { reportRoutes } from './reports.routes';
