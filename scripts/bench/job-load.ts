import { spawn } from 'node:child_process';
import { Agent, request } from 'node:http';
import type { Arrival, SinkMessage } from './smtp-sink';

/** bench:jobs's load: the SMTP sink's process (smtp-sink.ts) seen from the bench, and the form posts whose notices it waits for. */

// ---------- the SMTP sink ----------

export interface Sink {
  port: number;
  pid: number;
  /** Every message accepted so far. */
  arrivals: Arrival[];
  stop(): Promise<void>;
}

export async function startSink(): Promise<Sink> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/bench/smtp-sink.ts'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const arrivals: Arrival[] = [];
  const port = await new Promise<number>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`smtp sink exited with ${code}`)));
    child.on('message', (message: SinkMessage) => {
      if ('port' in message) resolve(message.port);
      else arrivals.push(...message.arrivals);
    });
  });
  return {
    port,
    pid: child.pid!,
    arrivals,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

// ---------- form posts ----------

/** One lead per post: its name carries the phase's tag and its index, and so does its notice's subject. */
export function formBody(tag: string, index: number): string {
  return JSON.stringify({
    name: `Bench ${tag} ${index}`,
    email: `lead-${tag}-${index}@bench.example`,
    company: 'Carter Autos',
    phone: '(512) 555-0102',
    subject: 'pricing',
    message: 'How much for 80 cars on the lot?',
  });
}
export const leadOf = (subject: string) => /Bench (\w+) (\d+)$/.exec(subject);

export function post(agent: Agent, url: URL, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      url,
      { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
      (response) => {
        response.resume();
        response.once('end', () => resolve(response.statusCode ?? 0));
        response.once('error', reject);
      },
    );
    outgoing.once('error', reject);
    outgoing.end(body);
  });
}

export interface Posts {
  /** When each post's `201` came back (epoch ms), by lead index. */
  answeredAt: number[];
  /** How long each post took, ms. */
  latencies: number[];
  seconds: number;
  failures: number;
}

const now = () => performance.timeOrigin + performance.now();

/** `total` posts, `connections` at a time over keep-alive sockets, each connection staying on one of `urls`. */
export async function postForms(urls: string[], tag: string, total: number, connections: number): Promise<Posts> {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const targets = urls.map((url) => new URL(url));
  const answeredAt: number[] = new Array<number>(total);
  const latencies: number[] = [];
  let next = 0;
  let failures = 0;
  let firstFailure = '';
  const started = now();
  const worker = async (connection: number) => {
    const target = targets[connection % targets.length]!;
    while (next < total) {
      const index = next++;
      const sent = now();
      const status = await post(agent, target, formBody(tag, index)).catch((error: unknown) => String(error));
      const answered = now();
      if (status === 201) {
        answeredAt[index] = answered;
        latencies.push(answered - sent);
      } else {
        failures += 1;
        firstFailure ||= `${target.host} answered ${status}`;
      }
    }
  };
  await Promise.all(Array.from({ length: connections }, (_, connection) => worker(connection)));
  const seconds = (now() - started) / 1000;
  agent.destroy();
  if (failures > 0) console.log(`    ${failures} of ${total} posts failed (first: ${firstFailure})`);
  return { answeredAt, latencies: latencies.sort((a, b) => a - b), seconds, failures };
}
