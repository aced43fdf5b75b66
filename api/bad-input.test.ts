import { describe, expect, it } from 'vitest';
import type { Database } from '../db/schema';
import { signInStaff, staffEnv, validInput } from '../test/support/factories';
import { buildTestServer } from '../test/support/helper';

/**
 * Nothing a client sends produces a 5xx or a stored row: every POST (and the lead PATCH) against
 * malformed JSON, wrong content types, wrong types, prototype keys, huge bodies and control characters.
 */
describe('bad input on every POST', async () => {
  const { app } = await buildTestServer({ ...staffEnv, RATE_LIMIT_ALLOWLIST: '127.0.0.1' });
  const staffCookie = (await signInStaff(app)).cookie;
  const created = await app.inject({ method: 'POST', url: '/api/contact-submission', payload: validInput.contact() });
  const leadId: number = created.json().id;

  const tables: (keyof Database)[] = [
    'users',
    'admins',
    'sessions',
    'passwordResets',
    'demoRequests',
    'contactSubmissions',
    'supportTickets',
    'getStartedRequests',
    'chatSessions',
    'chatMessages',
  ];
  const snapshot = async () => {
    const counts: Record<string, number> = {};
    for (const table of tables) {
      const row = await app.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      counts[table] = Number(row.n);
    }
    const lead = await app.db.selectFrom('contactSubmissions').select(['status', 'note']).where('id', '=', leadId).executeTakeFirstOrThrow();
    return { counts, lead };
  };

  const credentials = { username: 'staff@lotwise.example', password: 'whatever-password' };
  /** Each endpoint with a valid body; `null` for the calls that take no body. */
  const endpoints: { method: 'POST' | 'PATCH'; url: string; valid: Record<string, unknown> | null; staff?: boolean }[] = [
    { method: 'POST', url: '/api/demo-request', valid: validInput.demo() },
    { method: 'POST', url: '/api/contact-submission', valid: validInput.contact() },
    { method: 'POST', url: '/api/support-ticket', valid: validInput.support() },
    { method: 'POST', url: '/api/get-started-request', valid: validInput['get-started']() },
    { method: 'POST', url: '/api/login', valid: credentials },
    { method: 'POST', url: '/api/admin-login', valid: credentials },
    { method: 'POST', url: '/api/forgot-password', valid: { email: 'someone@dealer.example' } },
    { method: 'POST', url: '/api/reset-password', valid: { token: 'a-token-of-the-right-length-000', password: 'new-password-1' } },
    { method: 'POST', url: '/api/logout', valid: null },
    { method: 'POST', url: '/api/admin-logout', valid: null },
    { method: 'PATCH', url: `/api/leads/contact/${leadId}`, valid: { status: 'closed', note: 'done' }, staff: true },
  ];

  const huge = 'x'.repeat(70 * 1024);
  const control = 'Sam\u0000Carter\u001b[31m';

  type Case = { name: string; contentType: string; body: (valid: Record<string, unknown>) => string; bodyless?: boolean };
  const cases: Case[] = [
    { name: 'malformed JSON', contentType: 'application/json', body: () => '{"name": "Sam", ', bodyless: true },
    { name: 'empty JSON body', contentType: 'application/json', body: () => '', bodyless: true },
    { name: 'form-encoded body', contentType: 'application/x-www-form-urlencoded', body: () => 'name=Sam&email=sam%40x.example', bodyless: true },
    { name: 'unknown content type', contentType: 'application/xml', body: () => '<lead/>', bodyless: true },
    { name: 'body over 64 KiB', contentType: 'application/json', body: (valid) => JSON.stringify({ ...valid, message: huge, note: huge }), bodyless: true },
    { name: '__proto__ key', contentType: 'application/json', body: (valid) => `{"__proto__":{"admin":true},${JSON.stringify(valid).slice(1)}`, bodyless: true },
    { name: 'constructor.prototype key', contentType: 'application/json', body: (valid) => `{"constructor":{"prototype":{"admin":true}},${JSON.stringify(valid).slice(1)}`, bodyless: true },
    { name: 'plain-text body', contentType: 'text/plain', body: (valid) => JSON.stringify(valid) },
    { name: 'JSON array', contentType: 'application/json', body: (valid) => JSON.stringify([valid]) },
    { name: 'JSON string', contentType: 'application/json', body: () => '"hello"' },
    { name: 'JSON null', contentType: 'application/json', body: () => 'null' },
    { name: 'numbers for strings', contentType: 'application/json', body: (valid) => JSON.stringify(Object.fromEntries(Object.keys(valid).map((key) => [key, 12345]))) },
    { name: 'objects for strings', contentType: 'application/json', body: (valid) => JSON.stringify(Object.fromEntries(Object.keys(valid).map((key) => [key, { $gt: '' }]))) },
    {
      name: 'control characters',
      contentType: 'application/json',
      body: (valid) => JSON.stringify(Object.fromEntries(Object.entries(valid).map(([key, value]) => [key, typeof value === 'string' ? control : value]))),
    },
  ];

  const table = endpoints.flatMap((endpoint) =>
    cases.filter((item) => endpoint.valid || item.bodyless).map((item) => [`${endpoint.method} ${endpoint.url}`, item.name, endpoint, item] as const),
  );

  it.each(table)('%s with %s: 4xx and nothing stored', async (_label, _name, endpoint, item) => {
    const before = await snapshot();
    const response = await app.inject({
      method: endpoint.method,
      url: endpoint.url,
      headers: { 'content-type': item.contentType, ...(endpoint.staff ? { cookie: staffCookie } : {}) },
      payload: item.body(endpoint.valid ?? { anything: 'x' }),
    });
    expect(response.statusCode).toBeGreaterThanOrEqual(400);
    expect(response.statusCode).toBeLessThan(500);
    expect(typeof response.json().message).toBe('string');
    expect(await snapshot()).toEqual(before);
  });

  it('names the problem for the parser-level refusals', async () => {
    const send = (contentType: string, payload: string) =>
      app.inject({ method: 'POST', url: '/api/contact-submission', headers: { 'content-type': contentType }, payload });
    expect((await send('application/json', '{"name": ')).json()).toEqual({ message: 'Request body is not valid JSON' });
    const unsupported = await send('application/x-www-form-urlencoded', 'name=Sam');
    expect(unsupported.statusCode).toBe(415);
    expect(unsupported.json()).toEqual({ message: 'Unsupported content type: send application/json' });
    const tooLarge = await send('application/json', JSON.stringify({ ...validInput.contact(), message: huge }));
    expect(tooLarge.statusCode).toBe(413);
    expect(tooLarge.json()).toEqual({ message: 'Request body is too large' });
    const control = await send('application/json', JSON.stringify({ ...validInput.contact(), name: 'Sam\u0007' }));
    expect(control.json()).toEqual({ message: 'Validation failed', errors: { name: 'Contains characters that are not allowed' } });
    const bidi = await send('application/json', JSON.stringify({ ...validInput.contact(), company: 'Acme \u202Esotua' }));
    expect(bidi.json()).toEqual({ message: 'Validation failed', errors: { company: 'Contains characters that are not allowed' } });
  });

  it('refuses line breaks in one-line fields, which could forge lines in the new-lead mail', async () => {
    const before = await snapshot();
    const post = (url: string, body: Record<string, unknown>) => app.inject({ method: 'POST', url, payload: body });
    const forged = await post('/api/contact-submission', { ...validInput.contact(), name: 'Sam\r\nSubject: Invoice overdue' });
    expect(forged.statusCode).toBe(400);
    expect(forged.json()).toEqual({ message: 'Validation failed', errors: { name: 'Name must be on one line' } });
    const cases: [string, string, string][] = [
      ['/api/demo-request', 'company', 'Company name must be on one line'],
      ['/api/support-ticket', 'subject', 'Subject must be on one line'],
      ['/api/get-started-request', 'city', 'City must be on one line'],
      ['/api/get-started-request', 'currentWebsite', 'Current website must be on one line'],
    ];
    const kinds = { '/api/demo-request': 'demo', '/api/support-ticket': 'support', '/api/get-started-request': 'get-started' } as const;
    for (const [url, field, message] of cases) {
      const answer = await post(url, { ...validInput[kinds[url as keyof typeof kinds]](), [field]: 'Line one\nLine two' });
      expect(answer.json()).toEqual({ message: 'Validation failed', errors: { [field]: message } });
    }
    expect(await snapshot()).toEqual(before);
  });

  it.each([
    ['a right-to-left override', 'Sam \u202Eretrac'],
    ['a right-to-left mark', 'Sam\u200F Carter'],
    ['a zero-width space', 'Sam\u200BCarter'],
    ['hidden Unicode tags', 'Sam Carter\u{E0069}\u{E0067}\u{E006E}\u{E006F}\u{E0072}\u{E0065}'],
  ])('refuses a name with %s: 400 naming the field, nothing stored', async (_label, name) => {
    const before = await snapshot();
    const answer = await app.inject({ method: 'POST', url: '/api/contact-submission', payload: { ...validInput.contact(), name } });
    expect(answer.statusCode).toBe(400);
    expect(answer.json()).toEqual({ message: 'Validation failed', errors: { name: 'Contains characters that are not allowed' } });
    expect(await snapshot()).toEqual(before);
  });

  it('keeps line breaks in the fields typed into a text area', async () => {
    const answer = await app.inject({
      method: 'POST',
      url: '/api/contact-submission',
      payload: { ...validInput.contact(), message: 'First line of the message.\nSecond line.' },
    });
    expect(answer.statusCode).toBe(201);
    expect(answer.json().message).toBe('First line of the message.\nSecond line.');
  });

  it('stays healthy afterwards', async () => {
    expect((await app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    expect((await app.inject({ method: 'POST', url: '/api/contact-submission', payload: validInput.contact() })).statusCode).toBe(201);
  });
});
