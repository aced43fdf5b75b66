import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { freshDatabaseEnv } from '../test/support/helper';
import { buildApp } from './app';
import { parseConfig } from './config';

/** The built SPA is served with the .br/.gz files the build writes beside each asset. */
describe('static web app', () => {
  let app: FastifyInstance;
  let dir: string;
  const script = `console.log(${JSON.stringify('x'.repeat(4000))});`;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'lotwise-static-'));
    const webRoot = join(dir, 'web');
    mkdirSync(join(webRoot, 'assets'), { recursive: true });
    writeFileSync(join(webRoot, 'index.html'), '<!doctype html><div id="root"></div>');
    writeFileSync(join(webRoot, 'assets', 'app.js'), script);
    writeFileSync(join(webRoot, 'assets', 'app.js.br'), brotliCompressSync(script));
    writeFileSync(join(webRoot, 'assets', 'app.js.gz'), gzipSync(script));
    const config = {
      ...parseConfig({ NODE_ENV: 'test', DATABASE_PATH: join(dir, 'app.db'), ...(await freshDatabaseEnv()), DATA_DIR: dir, LOG_LEVEL: 'silent' }),
      sessionSecret: 'test-session-secret-that-is-long-enough-0123456789',
    };
    app = await buildApp(config, { webRoot });
    await app.ready();
  });

  afterAll(async () => {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('sends the brotli file to a browser that accepts it, gzip to one that accepts only gzip', async () => {
    const brotli = await app.inject({ url: '/assets/app.js', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(brotli.statusCode).toBe(200);
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotli.rawPayload.length).toBeLessThan(script.length);
    expect(brotli.headers['cache-control']).toContain('immutable');

    const gzip = await app.inject({ url: '/assets/app.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');

    const plain = await app.inject({ url: '/assets/app.js' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.payload).toBe(script);
  });

  it('without a page map from the build, answers an unknown page with the SPA shell', async () => {
    const response = await app.inject({ url: '/no-such-page', headers: { accept: 'text/html' } });
    expect(response.statusCode).toBe(200);
    expect(response.payload).toContain('<div id="root">');
  });
});
