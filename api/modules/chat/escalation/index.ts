import type { FastifyInstance } from 'fastify';
import type { Config } from '../../../config';
import { escalateUnreadChats } from './chat.escalation';

/** Escalation: a visitor message staff have not read in time is mailed to NOTIFY_EMAIL, one per session per 15 minutes. */
export function escalation(app: FastifyInstance, config: Config): void {
  escalateUnreadChats(app, config);
}
