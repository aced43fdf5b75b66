import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from './free-port';

/** The shipped example: what a deployer copies to /etc/nginx/conf.d/. Tests run this very file. */
export const shippedNginxConfig = resolve(import.meta.dirname, '../../deploy/nginx.conf');

const nginxBinary = existsSync('/usr/sbin/nginx') ? '/usr/sbin/nginx' : 'nginx';

export interface NginxInstance {
  url: string;
  port: number;
  pid: number;
  /**
   * nginx's access logs so far: the site's, in deploy/nginx.conf's format (one line per request, the
   * node that answered last), then the one nginx.conf sets for every site, as Debian's does, which
   * the site's replaces (so it stays empty).
   */
  accessLog(): Promise<string>;
  stop(): Promise<void>;
}

/**
 * deploy/nginx.conf with the edits a deployer makes: its upstream `server` lines replaced by one per
 * port, its `listen 80;` by a loopback port; and its access log moved to `accessLogPath`. Throws if
 * the file no longer has what it edits.
 */
export function renderSiteConfig(shipped: string, options: { upstreamPorts: number[]; listenPort: number; accessLogPath: string }): string {
  const upstreamServer = /^( *)server 127\.0\.0\.1:\d+( [^;\n]*)?;\n/gm;
  const accessLog = /^( *)access_log \/var\/log\/nginx\/access\.log( [^;\n]*);$/m;
  const servers = [...shipped.matchAll(upstreamServer)];
  if (servers.length === 0 || !/^ *listen 80;$/m.test(shipped) || !accessLog.test(shipped)) {
    throw new Error(`${shippedNginxConfig}: no upstream server lines, no "listen 80;" or no access_log to edit`);
  }
  const [first] = servers;
  const indent = first![1]!;
  const parameters = first![2] ?? '';
  const ours = options.upstreamPorts.map((port) => `${indent}server 127.0.0.1:${port}${parameters};\n`).join('');
  let placed = false;
  return shipped
    .replace(upstreamServer, () => (placed ? '' : ((placed = true), ours)))
    .replace(/^( *)listen 80;$/m, `$1listen 127.0.0.1:${options.listenPort};`)
    .replace(accessLog, `$1access_log ${options.accessLogPath}$2;`);
}

/** Resolves once something accepts connections on the port. */
async function waitForPort(port: number, isAlive: () => boolean, output: () => string): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (!isAlive()) throw new Error(`nginx exited early:\n${output()}`);
    const open = await new Promise<boolean>((settle) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => (socket.destroy(), settle(true)));
      socket.once('error', () => settle(false));
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error(`nginx did not listen on ${port}:\n${output()}`);
    await sleep(50);
  }
}

/**
 * A throwaway nginx in front of app nodes on loopback, configured by the shipped deploy/nginx.conf.
 * Everything it writes (pid, logs, temp files) stays in its own temporary folder, removed by `stop()`.
 */
export async function startNginx(options: { upstreamPorts: number[] }): Promise<NginxInstance> {
  const port = await freePort();
  const dir = await mkdtemp(join(tmpdir(), 'lotwise-nginx-'));
  await mkdir(join(dir, 'temp'));
  const accessLogPath = join(dir, 'access.log');
  const defaultAccessLogPath = join(dir, 'default-access.log');
  const site = renderSiteConfig(await readFile(shippedNginxConfig, 'utf8'), { upstreamPorts: options.upstreamPorts, listenPort: port, accessLogPath });
  await writeFile(join(dir, 'lotwise.conf'), site);
  const temp = (name: string) => `${name}_temp_path ${join(dir, 'temp', name)};`;
  // What /etc/nginx/nginx.conf holds around conf.d/*.conf, reduced to a folder of our own. As root,
  // nginx's workers would switch to `nobody`, who cannot write in this folder: they stay root here.
  const main = [
    process.getuid?.() === 0 ? 'user root;' : '',
    'worker_processes 1;',
    `pid ${join(dir, 'nginx.pid')};`,
    `error_log ${join(dir, 'error.log')} warn;`,
    // Each open chat holds two connections here (the browser's and the node's): room for bench:cluster's
    // 2,000 sockets and more, as the README asks of a production nginx.
    'worker_rlimit_nofile 20000;',
    'events { worker_connections 10000; }',
    'http {',
    // Debian's: every request of every site in the combined format, unless a site sets its own.
    `  access_log ${defaultAccessLogPath};`,
    `  ${temp('client_body')} ${temp('proxy')} ${temp('fastcgi')} ${temp('uwsgi')} ${temp('scgi')}`,
    `  include ${join(dir, 'lotwise.conf')};`,
    '}',
    '',
  ].join('\n');
  const configPath = join(dir, 'nginx.conf');
  await writeFile(configPath, main);

  const child = spawn(nginxBinary, ['-p', dir, '-c', configPath, '-e', join(dir, 'error.log'), '-g', 'daemon off;'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((settle) => child.once('exit', () => settle()));
  const spawned = await new Promise<Error | undefined>((settle) => {
    child.once('spawn', () => settle(undefined));
    child.once('error', settle);
  });
  if (spawned) throw new Error(`cannot run ${nginxBinary} (Debian: apt-get install nginx): ${spawned.message}`);
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      // SIGTERM is nginx's fast shutdown: open WebSockets are not waited for.
      child.kill('SIGTERM');
      await Promise.race([exited, sleep(5000)]);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    }
    await rm(dir, { recursive: true, force: true });
  };
  try {
    await waitForPort(port, () => child.exitCode === null && child.signalCode === null, () => output);
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    pid: child.pid!,
    accessLog: async () => {
      const logs = await Promise.all([accessLogPath, defaultAccessLogPath].map((path) => readFile(path, 'utf8').catch(() => '')));
      return logs.join('');
    },
    stop,
  };
}
