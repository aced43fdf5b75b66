import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { adminLoginAnswerSchema, staffAccountSchema } from '../../contract/auth';
import { okBodySchema, rowIdParam } from '../../contract/common';
import {
  acceptInviteSchema,
  inviteInputSchema,
  inviteLookupQuerySchema,
  inviteLookupSchema,
  memberPatchSchema,
  ownNameSchema,
  pendingInviteSchema,
  teamMemberSchema,
  teamPaths,
  teamSchema,
} from '../../contract/team';
import type { Config } from '../../config';
import { signedInStaffId, startStaffSession } from '../../plugins/auth';
import type { TeamService } from './team.service';

const memberParams = z.object({ id: rowIdParam('Member id') });
const inviteParams = z.object({ id: rowIdParam('Invite id') });
const fifteenMinutesMs = 15 * 60 * 1000;
/** Per IP: an invite link is a secret, so guessing tokens is limited like signing in. */
const inviteLinkPerIp = { max: 30, timeWindow: fifteenMinutesMs };

/** The Team screen's calls (admins), a member's own name (any staff), and an invite link's use. Inside the cookie-session scope. */
export async function teamRoutes(app: FastifyInstance, options: { team: TeamService; config: Config }) {
  const { team, config } = options;
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get(teamPaths.team, { onRequest: app.requireAdmin, schema: { response: { 200: teamSchema } } }, () => team.team());

  routes.post(
    teamPaths.invites,
    { onRequest: app.requireAdmin, schema: { body: inviteInputSchema, response: { 201: pendingInviteSchema } } },
    async (request, reply) => {
      const invite = await team.invite(signedInStaffId(request.session), request.body);
      reply.code(201);
      return invite;
    },
  );

  routes.post(
    teamPaths.revokeInvite,
    { onRequest: app.requireAdmin, schema: { params: inviteParams, response: { 200: okBodySchema } } },
    async (request) => {
      await team.revokeInvite(signedInStaffId(request.session), request.params.id);
      return { ok: true as const };
    },
  );

  routes.patch(
    teamPaths.member,
    { onRequest: app.requireAdmin, schema: { params: memberParams, body: memberPatchSchema, response: { 200: teamMemberSchema } } },
    (request) => team.changeRole(signedInStaffId(request.session), request.params.id, request.body.role),
  );

  routes.post(
    teamPaths.deactivate,
    { onRequest: app.requireAdmin, schema: { params: memberParams, response: { 200: teamMemberSchema } } },
    (request) => team.deactivate(signedInStaffId(request.session), request.params.id),
  );

  routes.post(
    teamPaths.reactivate,
    { onRequest: app.requireAdmin, schema: { params: memberParams, response: { 200: teamMemberSchema } } },
    (request) => team.reactivate(signedInStaffId(request.session), request.params.id),
  );

  routes.patch(
    teamPaths.me,
    { onRequest: app.requireStaff, schema: { body: ownNameSchema, response: { 200: staffAccountSchema } } },
    (request) => team.rename(signedInStaffId(request.session), request.body.displayName),
  );

  routes.get(
    teamPaths.invite,
    { schema: { querystring: inviteLookupQuerySchema, response: { 200: inviteLookupSchema } }, config: { rateLimit: inviteLinkPerIp } },
    (request) => team.lookupInvite(request.query.token),
  );

  /** The invitee chooses a password and is signed in at once: the mailed link proved the address. */
  routes.post(
    teamPaths.acceptInvite,
    { schema: { body: acceptInviteSchema, response: { 200: adminLoginAnswerSchema } }, config: { rateLimit: inviteLinkPerIp } },
    async (request) => {
      const member = await team.acceptInvite(request.body.token, request.body.password);
      await startStaffSession(request, member);
      return { message: 'Welcome to the team', admin: member.account, staffIdleMinutes: config.staffIdleMinutes };
    },
  );
}
