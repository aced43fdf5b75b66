import type { AdminSocket } from '../api/admin-socket';
import { recordServerPush } from './fake-server';

type Listener = (...args: unknown[]) => void;

/** A stand-in for the staff socket at the boundary: the test plays the server's events. */
export class FakeAdminSocket {
  connected = true;
  active = true;
  readonly emitted: { event: string; args: unknown[] }[] = [];
  private listeners = new Map<string, Set<Listener>>();

  on(event: string, listener: Listener): this {
    if (!this.listeners.has(event)) this.listeners.set(event, new Set());
    this.listeners.get(event)!.add(listener);
    return this;
  }

  off(event: string, listener?: Listener): this {
    if (listener) this.listeners.get(event)?.delete(listener);
    else this.listeners.delete(event);
    return this;
  }

  emit(event: string, ...args: unknown[]): this {
    this.emitted.push({ event, args });
    return this;
  }

  disconnect(): this {
    this.connected = false;
    this.active = false;
    return this;
  }

  /** The server pushes an event to this socket (the fake server stores what it announces). */
  serverPush(event: string, ...args: unknown[]): void {
    recordServerPush(event, args[0]);
    for (const listener of this.listeners.get(event) ?? []) listener(...args);
  }

  asSocket(): AdminSocket {
    return this as unknown as AdminSocket;
  }
}
