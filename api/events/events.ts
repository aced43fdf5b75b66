import type { ChatSessionSummary, StaffChatMessage } from '../contract/chat';
import type { Lead, LeadKind } from '../contract/leads';
import type { ChatNote } from '../contract/team-inbox-notes';

/**
 * What happened, as the writes that made it happen record it (`tx.emit`). Live listeners get the
 * event after its write commits (socket pushes, in this process); durable listeners turn it into a
 * job row in the write's own transaction (api/events/bus.ts). Events carry what the live pushes need;
 * a job's payload keeps ids only.
 */
export type DomainEvent =
  /** A public form's lead was stored. */
  | { type: 'lead.created'; kind: LeadKind; lead: Lead }
  /** Staff changed a lead's status or note. */
  | { type: 'lead.updated'; kind: LeadKind; lead: Lead }
  /**
   * A chat message was stored (as staff see it: with its author). `startedBy` is the visitor whose message started the session;
   * `fromSocket` is the socket that sent it (it has the ack, not the echo). `opensUnread`: a visitor's
   * message that is the first staff have neither read nor been mailed (it promises the escalation).
   */
  | { type: 'chat.message.created'; message: StaffChatMessage; startedBy?: string; fromSocket?: string; opensUnread?: true }
  /** Staff changed a chat session (its status, or read it). */
  | { type: 'chat.session.updated'; session: ChatSessionSummary }
  /** Staff wrote a private note in a conversation: pushed to staff only. */
  | { type: 'chat.note.created'; note: ChatNote }
  /** The visitor of a chat session was asked to rate it (chat.rating.ts): pushed to their widget. */
  | { type: 'chat.rating.asked'; sessionId: string }
  /** A dealer asked for a password reset and a link is to be mailed (the reset row's id). */
  | { type: 'password-reset.requested'; resetId: number }
  /** An admin changed auto-assignment (on/off, capacity): the queue may be handed out now. */
  | { type: 'auto-assignment.changed'; enabled: boolean; capacity: number }
  /** A staff account was created or its password reset. */
  | { type: 'staff.changed'; staffId: number; change: 'created' | 'password-reset' }
  /** An admin invited a new member: the invite's set-password link is to be mailed (api/modules/team). */
  | { type: 'staff.invited'; inviteId: number }
  /** An admin deactivated a member: `sessionIds` are the sign-ins that write ended, whose sockets close now. */
  | { type: 'staff.deactivated'; staffId: number; sessionIds: string[] }
  /** A staff member signed out of one sign-in (`sessionId`): its dashboard tabs close. */
  | { type: 'staff.signed-out'; staffId: number; sessionId: string };

export type EventType = DomainEvent['type'];
export type EventOf<T extends EventType> = Extract<DomainEvent, { type: T }>;
