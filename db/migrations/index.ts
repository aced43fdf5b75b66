import type { Migration } from 'kysely';
import * as initial from './2026-11-21T0000_initial';
import * as chatMessagesLean from './2026-11-22T0000_chat_messages_lean';
import * as sessionsByAccount from './2026-11-23T1200_sessions_by_account';
import * as chatMessageSeq from './2026-12-01T0000_chat_message_seq';
import * as chatSessionContext from './2026-12-02T0000_chat_session_context';
import * as leadStatusIndexes from './2026-12-02T0100_lead_status_indexes';
import * as messageAuthors from './2026-12-10T0000_message_authors';
import * as staffRoles from './2026-12-10T0100_staff_roles';
import * as jobs from './2026-12-11T0000_jobs';
import * as jobsByKind from './2026-12-12T0000_jobs_by_kind';
import * as jobsPendingIndex from './2026-12-12T0000_jobs_pending_index';
import * as chatSessionVersion from './2026-12-20T0200_chat_session_version';
import * as chatContinuity from './2026-12-20T0300_chat_continuity';
import * as chatRating from './2026-12-20T0400_chat_rating';
import * as chatEscalatedSeq from './2026-12-20T0500_chat_escalated_seq';
import * as auditLog from './2026-12-21T0000_audit_log';
import * as getStartedPlan from './2026-12-21T0100_get_started_plan';
import * as team from './2026-12-21T0100_team';
import * as assignment from './2026-12-21T0200_assignment';
import * as notesCanned from './2026-12-21T0300_notes_canned';
import * as chatResolution from './2026-12-21T0400_chat_resolution';
import * as webhooks from './2026-12-21T0600_webhooks';
import * as jobsClaimPlan from './2026-12-22T0000_jobs_claim_plan';
import * as jobClasses from './2026-12-23T0000_job_classes';
import * as webhookBackoff from './2026-12-23T0000_webhook_backoff';
import * as mailPolicy from './2026-12-23T0100_mail_policy';
import * as auditActorInvites from './2026-12-23T0200_audit_actor_invites';
import * as chatGrantExpiry from './2026-12-23T0300_chat_grant_expiry';

/** Every migration, in order. Add new files here; never edit a landed one. */
export const migrations: Record<string, Migration> = {
  '2026-11-21T0000_initial': initial,
  '2026-11-22T0000_chat_messages_lean': chatMessagesLean,
  '2026-11-23T1200_sessions_by_account': sessionsByAccount,
  '2026-12-01T0000_chat_message_seq': chatMessageSeq,
  '2026-12-02T0000_chat_session_context': chatSessionContext,
  '2026-12-02T0100_lead_status_indexes': leadStatusIndexes,
  '2026-12-10T0000_message_authors': messageAuthors,
  '2026-12-10T0100_staff_roles': staffRoles,
  '2026-12-11T0000_jobs': jobs,
  '2026-12-12T0000_jobs_by_kind': jobsByKind,
  '2026-12-12T0000_jobs_pending_index': jobsPendingIndex,
  '2026-12-20T0200_chat_session_version': chatSessionVersion,
  '2026-12-20T0300_chat_continuity': chatContinuity,
  '2026-12-20T0400_chat_rating': chatRating,
  '2026-12-20T0500_chat_escalated_seq': chatEscalatedSeq,
  '2026-12-21T0000_audit_log': auditLog,
  '2026-12-21T0100_get_started_plan': getStartedPlan,
  '2026-12-21T0100_team': team,
  '2026-12-21T0200_assignment': assignment,
  '2026-12-21T0300_notes_canned': notesCanned,
  '2026-12-21T0400_chat_resolution': chatResolution,
  '2026-12-21T0600_webhooks': webhooks,
  '2026-12-22T0000_jobs_claim_plan': jobsClaimPlan,
  '2026-12-23T0000_job_classes': jobClasses,
  '2026-12-23T0000_webhook_backoff': webhookBackoff,
  '2026-12-23T0100_mail_policy': mailPolicy,
  '2026-12-23T0200_audit_actor_invites': auditActorInvites,
  '2026-12-23T0300_chat_grant_expiry': chatGrantExpiry,
};
