/**
 * Webhooks (DESIGN.md 12): `createWebhooks` defines the jobs and listeners (before the job runner
 * starts); app.ts registers `webhookRoutes` in the cookie-session scope.
 */
export { createWebhooks, type Webhooks } from './webhooks.service';
export { webhookRoutes } from './webhooks.routes';
export { webhookSignature } from './webhooks.send';
