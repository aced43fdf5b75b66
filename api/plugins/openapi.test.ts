import type { RouteOptions } from 'fastify';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { chatMessageInputSchema, chatMessageRecord, chatHistoryEntry, chatSessionParamsSchema } from '../contract/chat';
import { okBodySchema } from '../contract/common';
import { contactSubmissionRecord, contactSubmissionSchema } from '../contract/leads';
import { operatorPaths, readinessSchema } from '../contract/operations';
import { apiPaths, leadPaths } from '../contract/paths';
import { buildTestServer } from '../../test/support/helper';

interface Operation {
  parameters?: { in: string; name: string; schema: unknown }[];
  requestBody?: { content: Record<string, { schema: unknown }> };
  responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
}
interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
}

/** `const: x` written as `enum: [x]`, the same constraint: @fastify/swagger writes it so for Swagger UI. */
function constAsEnum(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(constAsEnum);
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value).map(([key, child]) => (key === 'const' ? ['enum', [child]] : [key, constAsEnum(child)]));
  return Object.fromEntries(entries);
}

/** The contract schema as JSON Schema, as the document should carry it (2020-12, the side a client sends or reads). */
function fromContract(schema: z.ZodType, io: 'input' | 'output'): unknown {
  const { $schema: _dialect, ...json } = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' });
  return constAsEnum(json);
}

const routes: RouteOptions[] = [];
const { app } = await buildTestServer({}, { onRoute: (route) => void routes.push(route) });
const answer = await app.inject({ method: 'GET', url: operatorPaths.openapi });
const document = answer.json<OpenApiDocument>();
const operation = (path: string, method: string) => document.paths[path.replace(/:(\w+)/g, '{$1}')]?.[method];

/** What the document must describe: every API route and the probes; the docs' own routes are not the API. */
function belongsInDocument(url: string): boolean {
  if (url === operatorPaths.healthz || url === operatorPaths.readyz) return true;
  return url.startsWith('/api/') && url !== operatorPaths.openapi && !url.startsWith(`${operatorPaths.docs}/`);
}

describe('the OpenAPI document', () => {
  it('is OpenAPI 3.1 at /api/openapi.json', () => {
    expect(answer.statusCode).toBe(200);
    expect(document.openapi).toBe('3.1.0');
  });

  it('has every route the app registered, with each of its methods, and no path the app does not serve', () => {
    const served = new Set<string>();
    for (const route of routes) {
      const methods = (Array.isArray(route.method) ? route.method : [route.method]).filter((method) => method !== 'HEAD');
      if (!belongsInDocument(route.url)) continue;
      for (const method of methods) served.add(`${method.toLowerCase()} ${route.url.replace(/:(\w+)/g, '{$1}')}`);
    }
    const documented = new Set(Object.entries(document.paths).flatMap(([path, operations]) => Object.keys(operations).map((method) => `${method} ${path}`)));
    expect(served.size).toBeGreaterThan(30);
    expect([...served].filter((route) => !documented.has(route))).toEqual([]);
    expect([...documented].filter((route) => !served.has(route))).toEqual([]);
    // Pages, assets, the docs themselves and /metrics are not the API.
    expect(Object.keys(document.paths).filter((path) => !belongsInDocument(path))).toEqual([]);
  });

  it("carries the contract's schemas: a form post's body and answer", () => {
    const post = operation(leadPaths.contact.create, 'post')!;
    expect(post.requestBody?.content['application/json']?.schema).toEqual(fromContract(contactSubmissionSchema, 'input'));
    expect(post.responses['201']?.content?.['application/json']?.schema).toEqual(fromContract(z.union([contactSubmissionRecord, okBodySchema]), 'output'));
  });

  it("carries the contract's schemas: a chat message, a history's path parameter and answer, the readiness probe", () => {
    const send = operation(apiPaths.chatMessage, 'post')!;
    expect(send.requestBody?.content['application/json']?.schema).toEqual(fromContract(chatMessageInputSchema, 'input'));
    expect(send.responses['201']?.content?.['application/json']?.schema).toEqual(fromContract(chatMessageRecord, 'output'));

    const history = operation(apiPaths.chatHistory, 'get')!;
    const sessionId = history.parameters?.find((parameter) => parameter.in === 'path' && parameter.name === 'sessionId');
    expect(sessionId?.schema).toEqual((fromContract(chatSessionParamsSchema, 'input') as { properties: Record<string, unknown> }).properties.sessionId);
    expect(history.responses['200']?.content?.['application/json']?.schema).toEqual(fromContract(z.array(chatHistoryEntry), 'output'));

    const readyz = operation(operatorPaths.readyz, 'get')!;
    for (const status of ['200', '503']) {
      expect(readyz.responses[status]?.content?.['application/json']?.schema).toEqual(fromContract(readinessSchema, 'output'));
    }
  });
});

describe('GET /api/docs', () => {
  it('serves Swagger UI under a CSP of its own that lets its own scripts and styles run, and nothing from elsewhere', async () => {
    const page = await app.inject({ method: 'GET', url: `${operatorPaths.docs}/` });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("style-src 'self' 'unsafe-inline'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toMatch(/https?:|\*/);
    // Every script the page loads is served here.
    const scripts = [...page.body.matchAll(/<script src="([^"]+)"/g)].map((match) => match[1]!);
    expect(scripts.length).toBeGreaterThan(0);
    for (const src of scripts) {
      const script = await app.inject({ method: 'GET', url: new URL(src, `http://localhost${operatorPaths.docs}/`).pathname });
      expect(script.statusCode).toBe(200);
      expect(script.headers['content-type']).toContain('javascript');
    }
    // The document the page reads is the same one.
    const json = await app.inject({ method: 'GET', url: `${operatorPaths.docs}/json` });
    expect(json.json()).toEqual(document);
  });
});
