import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../../config';
import { mailPasswordResets } from './reset-mail';

export { default as authRoutes } from './auth.routes';
export { AccountError, bootstrapStaff, createDealer, createOrResetStaff } from './accounts';
export { hashPassword } from './password';
export { newPasswordProblem } from './password-rules';

/** Sign-ins and accounts: the routes go in the cookie-session scope (app.ts); the reset mail is a job. */
export default fp(
  async (app: FastifyInstance, options: { config: Config }) => {
    mailPasswordResets(app, options.config);
  },
  { name: 'accounts', dependencies: ['events', 'jobs', 'mail'] },
);
