import type { FastifyInstance } from 'fastify';
import type { ChainableCommander, Redis } from 'ioredis';
import type { StaffSocket, VisitorSocket } from './chat.socket-data';

/** Whether any staff member is online, as the chat widget shows it. */
export interface StaffPresence {
  /** Whether any staff member is online now, on any process. */
  online(): Promise<boolean>;
  /** The staff members with a live dashboard socket, on any process (auto-assignment gives them conversations). */
  onlineStaff(): Promise<number[]>;
  /** A staff socket of this process connected: it counts as online until it leaves. */
  arrived(socketId: string, staffId: number): Promise<void>;
  left(socketId: string): Promise<void>;
  /** Keeps this process's staff sockets counted, for a store whose entries expire unless refreshed. */
  refresh(sockets: StaffSocketEntry[]): Promise<void>;
}

/** A staff socket and whose it is. */
export interface StaffSocketEntry {
  socketId: string;
  staffId: number;
}

/** Presence within this process: the ids of its open staff sockets. */
export function inProcessStaffPresence(): StaffPresence {
  const staffSockets = new Map<string, number>();
  return {
    online: async () => staffSockets.size > 0,
    onlineStaff: async () => [...new Set(staffSockets.values())],
    arrived: async (socketId, staffId) => void staffSockets.set(socketId, staffId),
    left: async (socketId) => void staffSockets.delete(socketId),
    refresh: async () => {},
  };
}

/** Runs a MULTI; ioredis answers a failed command inside it as a result, which this throws. */
async function execAll(commands: ChainableCommander): Promise<void> {
  const results = await commands.exec();
  const error = results?.find(([failure]) => failure !== null)?.[0];
  if (error) throw error;
}

/**
 * Presence shared by every process: a Redis key per staff socket that expires after `ttlSeconds`
 * unless its process refreshes it, so the staff of a process that dies drop out on their own. A set
 * indexes the keys, so asking whether anyone is online reads the staff's keys, not the whole keyspace.
 */
export function redisStaffPresence(client: Redis, options: { keyPrefix: string; ttlSeconds: number }): StaffPresence {
  const index = `${options.keyPrefix}presence:staff-sockets`;
  const socketKey = (socketId: string) => `${options.keyPrefix}presence:staff:${socketId}`;
  const ttlMs = Math.round(options.ttlSeconds * 1000);
  const keep = async (sockets: StaffSocketEntry[]) => {
    if (sockets.length === 0) return;
    const commands = client.multi();
    // SET, not PEXPIRE: a key lost with a Redis restart comes back at the next refresh. Its value is whose socket it is.
    for (const { socketId, staffId } of sockets) commands.set(socketKey(socketId), `staff:${staffId}`, 'PX', ttlMs);
    commands.sadd(index, ...sockets.map((socket) => socket.socketId));
    await execAll(commands);
  };
  /** Whose each live staff socket is; the ids of expired ones leave the index. */
  const liveOwners = async (): Promise<string[]> => {
    const socketIds = await client.smembers(index);
    if (socketIds.length === 0) return [];
    const alive = await client.mget(socketIds.map(socketKey));
    const expired = socketIds.filter((_, i) => alive[i] === null);
    // A socket's key is set before its id joins the index, so an id without a key is gone for good.
    if (expired.length > 0) await client.srem(index, ...expired);
    return alive.filter((owner): owner is string => owner !== null);
  };
  return {
    online: async () => (await liveOwners()).length > 0,
    // A key written before staff ids were kept holds '1': nobody's, until its process refreshes it (a quarter TTL).
    onlineStaff: async () => [...new Set((await liveOwners()).filter((owner) => owner.startsWith('staff:')).map((owner) => Number(owner.slice('staff:'.length))))],
    arrived: (socketId, staffId) => keep([{ socketId, staffId }]),
    async left(socketId) {
      await execAll(client.multi().del(socketKey(socketId)).srem(index, socketId));
    },
    refresh: keep,
  };
}

/** The cross-process nudge: "staff came or went here, look again". */
const presenceChangedEvent = 'staff-presence-changed';
/** How long closing waits for this process's last presence writes before leaving them to the TTL. */
const closeWaitMs = 2000;

/**
 * Tells each new visitor socket whether staff are online, and this process's visitors whenever
 * that changes. Every socket of /admin is a staff member's (its connect guard).
 *
 * Each process tells its own visitors only, and only a change from what it last told them, so no
 * visitor hears the same state twice. It looks again when its own staff come or go, when another
 * process says its staff did (`shared`: through the adapter), and, when `refreshEveryMs` is set,
 * on a timer that also refreshes its own staff's entries: that timer is how the staff of a process
 * that died without a word drop out for everyone.
 */
export function announceStaffPresence(
  app: FastifyInstance,
  presence: StaffPresence,
  options: { shared: boolean; refreshEveryMs?: number; staffArrived?: (staffId: number) => void },
): void {
  const visitors = app.visitorSockets;
  const failed = (error: unknown) => app.log.error({ err: error }, 'staff presence failed');
  /** What this process's visitors were last told; undefined before the first check. */
  let told: boolean | undefined;
  let closing = false;
  const inFlight = new Set<Promise<void>>();
  const track = (work: Promise<void>) => {
    const tracked = work.catch(failed).finally(() => inFlight.delete(tracked));
    inFlight.add(tracked);
  };

  // One check at a time, so an older answer never overwrites a newer one; calls meanwhile share the next check.
  let checking = false;
  let again = false;
  const newcomers: VisitorSocket[] = [];
  const runChecks = async () => {
    checking = true;
    try {
      do {
        again = false;
        const waiting = newcomers.splice(0);
        const online = await presence.online();
        if (online !== told) {
          told = online;
          // Every visitor of this process, the waiting newcomers among them.
          visitors.local.emit('staff:presence', { online });
          newcomers.length = 0;
        } else {
          for (const socket of waiting) if (socket.connected) socket.emit('staff:presence', { online });
        }
      } while (again && !closing);
    } finally {
      checking = false;
    }
  };
  const check = (newcomer?: VisitorSocket) => {
    if (closing) return;
    if (newcomer) newcomers.push(newcomer);
    if (checking) {
      again = true;
      return;
    }
    track(runChecks());
  };
  const staffCameOrWent = (change: Promise<void>) => {
    track(
      change.then(() => {
        check();
        if (options.shared && !closing) visitors.serverSideEmit(presenceChangedEvent);
      }),
    );
  };

  visitors.on('connection', (socket) => check(socket as VisitorSocket));
  if (options.shared) visitors.on(presenceChangedEvent, () => check());
  app.staffSockets.on('connection', (socket) => {
    const { staffId } = (socket as StaffSocket).data;
    // Once stored, so whoever reacts (auto-assignment) finds them online.
    staffCameOrWent(presence.arrived(socket.id, staffId).then(() => options.staffArrived?.(staffId)));
    socket.on('disconnect', () => staffCameOrWent(presence.left(socket.id)));
  });

  if (options.refreshEveryMs !== undefined) {
    const refreshTimer = setInterval(() => {
      // The ids are read and the refresh sent in one tick: a disconnect's removal, sent later, wins.
      const sockets = [...app.staffSockets.sockets.values()].map((socket) => ({ socketId: socket.id, staffId: (socket as StaffSocket).data.staffId }));
      track(presence.refresh(sockets).then(() => check()));
    }, options.refreshEveryMs);
    refreshTimer.unref();
    app.addHook('onClose', async () => clearInterval(refreshTimer));
  }
  // The removals of this process's staff (their sockets close first) finish before Redis is quit;
  // with Redis away they cannot, and their keys expire on their own (the TTL), so close stops waiting.
  app.addHook('onClose', async () => {
    closing = true;
    const redisAway = new Promise<void>((resolve) => setTimeout(resolve, closeWaitMs).unref());
    await Promise.race([Promise.allSettled([...inFlight]), redisAway]);
  });
}
