import { rooms } from '../../../contract/socket';
import type { VisitorNamespace } from '../../../plugins/socket-io';
import type { ChatRoomsInUse, VisitorSocket } from './chat.socket-data';

/**
 * Chat-session rooms one visitor socket may be in at once. A visitor has one conversation, a few at
 * most (an old one reopened, another tab's), and every room is memory held until the socket closes:
 * a socket going through session after session must not keep one for each. Its `visitor:` room is apart.
 */
export const maxChatRoomsPerSocket = 10;

const chatSessionRoomPrefix = rooms.chatSession('');

/** One visitor socket's chat-session rooms, least recently used first. */
export class RecentChatRooms implements ChatRoomsInUse {
  private readonly inUse = new Set<string>();

  /** Marks the room used now; answers the least recently used one when that makes one too many. */
  used(room: string): string | undefined {
    this.inUse.delete(room);
    this.inUse.add(room);
    if (this.inUse.size <= maxChatRoomsPerSocket) return undefined;
    const [oldest] = this.inUse;
    this.inUse.delete(oldest!);
    return oldest;
  }

  left(room: string): void {
    this.inUse.delete(room);
  }
}

/**
 * Keeps each visitor socket in at most `maxChatRoomsPerSocket` chat-session rooms, however it came
 * into one (its own join or send, or the first message of a session its visitor started in another
 * tab): one room more leaves the least recently used, whose pushes come back when it is joined again.
 * Watches this process's adapter, which sees every room change of its own sockets.
 */
export function capChatRoomsPerSocket(visitors: VisitorNamespace): void {
  const socketOf = (id: string) => visitors.sockets.get(id) as VisitorSocket | undefined;
  visitors.adapter.on('join-room', (room: string, id: string) => {
    if (!room.startsWith(chatSessionRoomPrefix)) return;
    const socket = socketOf(id);
    const leave = socket?.data.chatRooms.used(room);
    if (socket && leave) void socket.leave(leave);
  });
  visitors.adapter.on('leave-room', (room: string, id: string) => {
    if (room.startsWith(chatSessionRoomPrefix)) socketOf(id)?.data.chatRooms.left(room);
  });
}

/** Puts the socket in a session's room, or marks the room used if it is in it already. */
export async function enterChatRoom(socket: VisitorSocket, sessionId: string): Promise<void> {
  const room = rooms.chatSession(sessionId);
  if (socket.rooms.has(room)) socket.data.chatRooms.used(room);
  else await socket.join(room);
}
