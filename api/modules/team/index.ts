import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../../config';
import { mailInvites } from './invite-mail';
import { TeamService } from './team.service';

declare module 'fastify' {
  interface FastifyInstance {
    team: TeamService;
  }
}

/** The routes go in the cookie-session scope (app.ts): `teamRoutes` with `app.team`. */
export { teamRoutes } from './team.routes';

/**
 * The team (DESIGN.md 11): staff accounts, invites (a mail job), roles, deactivation. A deactivated
 * member's dashboard sockets close as soon as the write commits, on every node (through the adapter).
 */
export default fp(
  async (app: FastifyInstance, options: { config: Config }) => {
    const team = new TeamService(app.db, app.write, { linkSecret: options.config.sessionSecret, publicUrl: options.config.publicUrl });
    app.decorate('team', team);
    mailInvites(app, team);
  },
  { name: 'team', dependencies: ['db', 'events', 'jobs', 'mail', 'socket-io'] },
);
