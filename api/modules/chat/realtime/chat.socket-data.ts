import type { Socket } from 'socket.io';
import type {
  StaffClientToServerEvents,
  StaffServerToClientEvents,
  VisitorClientToServerEvents,
  VisitorServerToClientEvents,
} from '../../../contract/socket';
import type { ConversationViewer } from '../../../contract/team-inbox-notes';
import type { EventBudget } from '../limits/chat.budget';

/** A visitor socket's chat-session rooms, least recently used first (chat.rooms.ts `RecentChatRooms`). */
export interface ChatRoomsInUse {
  /** Marks the room used now; answers the least recently used one when that makes one too many. */
  used(room: string): string | undefined;
  left(room: string): void;
}

/** What a visitor socket carries from its handshake on. */
export interface VisitorSocketData {
  visitorId: string;
  budget: EventBudget;
  /** Its chat-session rooms, kept few by chat.rooms.ts. */
  chatRooms: ChatRoomsInUse;
}
/** What a staff socket carries from its handshake on. */
export interface StaffSocketData {
  /** The cookie session's id: logout and expiry find the socket by it. */
  sid: string;
  /** The staff account signed in on it when it connected (presence, auto-assignment). */
  staffId: number;
  budget: EventBudget;
  /** Collision (chat.collision.ts): who the staff member is, once asked, and the conversation this socket shows. */
  viewer?: ConversationViewer;
  viewing?: string;
}
export type VisitorSocket = Socket<VisitorClientToServerEvents, VisitorServerToClientEvents, Record<string, never>, VisitorSocketData>;
export type StaffSocket = Socket<StaffClientToServerEvents, StaffServerToClientEvents, Record<string, never>, StaffSocketData>;
