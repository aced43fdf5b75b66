// @scaled: search, keyset paging and CSV: text and cursor statements per dialect
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { LeadKind } from '../../contract/leads';
import { staffEnv, signInStaff, validInput } from '../../../test/support/factories';
import { buildTestServer } from '../../../test/support/helper';
import { decodeHeader, readOutbox } from '../../../test/support/outbox';
import { nextEvent } from '../../../test/support/sockets';
import { connectStaffSocket } from '../../../test/support/staff-socket';
import { controlCharacterMessage } from '../../contract/common';
import { nextCursorHeader } from '../../contract/leads';
import { leadPaths } from '../../contract/paths';

const kinds = Object.keys(leadPaths) as LeadKind[];
const tableOf = {
  contact: 'contactSubmissions',
  support: 'supportTickets',
  demo: 'demoRequests',
  'get-started': 'getStartedRequests',
} as const;

describe('lead forms and staff lists', async () => {
  const { app, dir } = await buildTestServer(
    // Every lead mailed on its own: these tests read single notices, however many leads come before them.
    { ...staffEnv, NOTIFY_EMAIL: 'leads@lotwise.example', NOTIFY_DIGEST_PER_MINUTE: '0', RATE_LIMIT_ALLOWLIST: '127.0.0.1' },
    { listen: true },
  );
  const staffCookie = (await signInStaff(app)).cookie;
  const staffSocket = await connectStaffSocket(app, staffCookie);
  afterAll(() => {
    staffSocket.disconnect();
  });

  const rowCount = async (kind: LeadKind) => {
    const row = await app.db.selectFrom(tableOf[kind]).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return Number(row.n);
  };
  const post = (kind: LeadKind, payload: unknown) => app.inject({ method: 'POST', url: leadPaths[kind].create, payload: payload as object });
  const staffGet = (url: string) => app.inject({ method: 'GET', url, headers: { cookie: staffCookie } });

  describe.each(kinds)('%s form', (kind) => {
    it('stores a valid submission, answers 201 with the record and pushes it to staff sockets', async () => {
      const pushed = nextEvent(staffSocket, 'submission:new');
      const response = await post(kind, validInput[kind]());
      expect(response.statusCode).toBe(201);
      const record = response.json();
      expect(record).toMatchObject({ id: expect.any(Number), status: 'new', note: '', email: validInput[kind]().email });
      expect(new Date(record.createdAt).toISOString()).toBe(record.createdAt);
      await expect(pushed).resolves.toEqual({ kind, item: record });

      const list = await staffGet(leadPaths[kind].list);
      expect(list.statusCode).toBe(200);
      expect(list.json()).toContainEqual(record);
    });

    it('answers a filled honeypot with 201 and stores nothing', async () => {
      const before = await rowCount(kind);
      const response = await post(kind, { ...validInput[kind](), _gotcha: 'http://spam.example' });
      expect(response.statusCode).toBe(201);
      expect(await rowCount(kind)).toBe(before);
    });

    it('refuses the staff list to an anonymous caller', async () => {
      const response = await app.inject({ method: 'GET', url: leadPaths[kind].list });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ message: 'Not authenticated' });
    });
  });

  it('returns get-started lists and booleans as JSON, not as stored text', async () => {
    const response = await post('get-started', validInput['get-started']());
    expect(response.json()).toMatchObject({
      primaryGoals: ['Increase online leads', 'Mobile-friendly website'],
      feedExportDestinations: ['CarGurus', 'AutoTrader'],
      allowMarketing: true,
    });
    expect(response.json()).not.toHaveProperty('agreeToTerms');
    expect(response.json()).not.toHaveProperty('_gotcha');
  });

  it('mails NOTIFY_EMAIL a plain-text notice with the fields of each new lead', async () => {
    await post('contact', { ...validInput.contact(), name: 'Mailed <b>Person</b>', message: 'Please mail this one to staff' });
    await app.jobs.runDue();
    const outbox = join(dir, 'outbox');
    const files = (await readdir(outbox)).filter((name) => name.endsWith('.eml'));
    const mails = await Promise.all(files.map((name) => readFile(join(outbox, name), 'utf8')));
    const mail = mails.find((text) => text.includes('To: leads@lotwise.example') && text.includes('Mailed <b>Person</b>'));
    expect(mail).toBeDefined();
    expect(mail).toContain('To: leads@lotwise.example');
    expect(mail).toContain('Subject: Contact form: Mailed <b>Person</b>');
    expect(mail).toContain('Message: Please mail this one to staff');
    expect(mail).toContain('Content-Type: text/plain');
    expect(mail).not.toContain('text/html');
  });

  it.each([
    ['an all-ASCII name', '=?utf-8?B?SW52b2ljZSBvdmVyZHVl?='],
    ['a name with accents, which the mailer encodes itself', 'José =?utf-8?Q?Invoice_overdue?='],
  ])('keeps RFC 2047 encoded-words of %s out of the notice subject', async (_label, name) => {
    const message = `Encoded-word subject check: ${name}`;
    await post('contact', { ...validInput.contact(), name, message });
    await app.jobs.runDue();
    const mail = (await readOutbox(dir)).find((each) => each.text.includes(message));
    const subject = decodeHeader(mail!.headers.subject!);
    // What a mail client shows: the visitor's characters, never text decoded from them.
    expect(subject).not.toContain('Invoice overdue');
    expect(subject).not.toMatch(/=\?[^?]*\?[bq]\?[^?]*\?=/i);
    expect(subject).toMatch(/^Contact form: .*\?utf-8\?[BQ]\?(SW52b2ljZSBvdmVyZHVl|Invoice_overdue)\?=$/);
  });

  describe('validation messages of the contract', () => {
    const cases: [LeadKind, string, unknown, string][] = [
      ['demo', 'name', 'A', 'Name must be at least 2 characters'],
      ['demo', 'email', 'not-an-email', 'Please enter a valid email address'],
      ['demo', 'company', 'X', 'Company name must be at least 2 characters'],
      ['contact', 'name', ' A ', 'Name must be at least 2 characters'],
      ['contact', 'email', 'sam@', 'Please enter a valid email address'],
      ['contact', 'company', '', 'Company name must be at least 2 characters'],
      ['contact', 'phone', '12345', 'Please enter a valid phone number'],
      ['contact', 'subject', '', 'Please select a subject'],
      ['contact', 'message', 'Too short', 'Message must be at least 10 characters'],
      ['support', 'name', '', 'Name must be at least 2 characters'],
      ['support', 'email', 'lee.example', 'Please enter a valid email address'],
      ['support', 'company', 'P', 'Company name must be at least 2 characters'],
      ['support', 'priority', '', 'Please select a priority level'],
      ['support', 'category', '', 'Please select a category'],
      ['support', 'subject', 'Help', 'Subject must be at least 5 characters'],
      ['support', 'description', 'It is broken.', 'Description must be at least 20 characters'],
      ['get-started', 'firstName', 'A', 'First name must be at least 2 characters'],
      ['get-started', 'lastName', 'M', 'Last name must be at least 2 characters'],
      ['get-started', 'email', 'alex', 'Please enter a valid email address'],
      ['get-started', 'phone', '555', 'Please enter a valid phone number'],
      ['get-started', 'dealershipName', 'M', 'Dealership name must be at least 2 characters'],
      ['get-started', 'address', '12 Main', 'Please enter a complete address'],
      ['get-started', 'city', 'A', 'City is required'],
      ['get-started', 'state', 'T', 'State is required'],
      ['get-started', 'zipCode', '787', 'ZIP code must be at least 5 characters'],
      ['get-started', 'inventorySize', '', 'Please select your inventory size'],
      ['get-started', 'launchDate', '', 'Please select your preferred launch date'],
      ['get-started', 'primaryGoals', [], 'Please select at least one goal'],
      ['get-started', 'agreeToTerms', false, 'You must agree to the terms'],
    ];

    it.each(cases)('%s: %s = %j gets "%s" and stores nothing', async (kind, field, value, message) => {
      const before = await rowCount(kind);
      const response = await post(kind, { ...validInput[kind](), [field]: value });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ message: 'Validation failed', errors: { [field]: message } });
      expect(await rowCount(kind)).toBe(before);
    });

    it.each(cases.filter(([, field]) => field !== 'agreeToTerms'))('%s: a missing %s gets the same message', async (kind, field, _value, message) => {
      const payload: Record<string, unknown> = validInput[kind]();
      delete payload[field];
      const response = await post(kind, payload);
      expect(response.statusCode).toBe(400);
      expect(response.json().errors[field]).toBe(message);
    });

    it('reports every failing field at once', async () => {
      const response = await post('support', {});
      expect(response.statusCode).toBe(400);
      expect(Object.keys(response.json().errors).sort()).toEqual(['category', 'company', 'description', 'email', 'name', 'priority', 'subject']);
    });
  });
});

describe('paging, search, CSV and lead updates', async () => {
  const { app } = await buildTestServer({ ...staffEnv, RATE_LIMIT_ALLOWLIST: '127.0.0.1' }, { listen: true });
  const cookie = (await signInStaff(app)).cookie;
  const staffGet = (url: string) => app.inject({ method: 'GET', url, headers: { cookie } });

  const names = ['Ann Lee', 'Bob 100% Motors', 'Cara_Smith', 'Dee O"Neil', '=HYPERLINK("http://evil.example")', 'Eve Stone'];
  const created: { id: number; name: string; createdAt: string }[] = [];
  for (const name of names) {
    const response = await app.inject({
      method: 'POST',
      url: '/api/contact-submission',
      payload: { ...validInput.contact(), name, company: `${name.slice(0, 8)} Co` },
    });
    created.push(response.json());
  }
  const newestFirst = [...created].reverse();

  it('pages newest first by keyset cursor, with the next cursor in a header', async () => {
    const first = await staffGet('/api/contact-submissions?limit=4');
    expect(first.json().map((row: { id: number }) => row.id)).toEqual(newestFirst.slice(0, 4).map((row) => row.id));
    const cursor = first.headers[nextCursorHeader];
    expect(cursor).toBe(`${newestFirst[3]!.createdAt},${newestFirst[3]!.id}`);

    const second = await staffGet(`/api/contact-submissions?limit=4&before=${encodeURIComponent(String(cursor))}`);
    expect(second.json().map((row: { id: number }) => row.id)).toEqual(newestFirst.slice(4).map((row) => row.id));
    expect(second.headers[nextCursorHeader]).toBeUndefined();
  });

  it('answers a bad limit, cursor or search with 400', async () => {
    expect((await staffGet('/api/contact-submissions?limit=0')).statusCode).toBe(400);
    expect((await staffGet('/api/contact-submissions?limit=501')).statusCode).toBe(400);
    const bad = await staffGet('/api/contact-submissions?before=yesterday');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.before).toBe('before must be a cursor of the form <createdAt>,<id>');
    // PostgreSQL refuses a NUL in text outright: the search must never reach it.
    const nul = await staffGet(`/api/contact-submissions?q=${encodeURIComponent('ann\u0000lee')}`);
    expect(nul.statusCode).toBe(400);
    expect(nul.json().errors.q).toBe(controlCharacterMessage);
  });

  it('searches name, email, company and subject case-insensitively, with % and _ taken literally', async () => {
    const found = async (q: string) =>
      (await staffGet(`/api/contact-submissions?q=${encodeURIComponent(q)}`)).json().map((row: { name: string }) => row.name);
    expect(await found('ann lee')).toEqual(['Ann Lee']);
    expect(await found('EVE')).toEqual(['Eve Stone']);
    expect(await found('100%')).toEqual(['Bob 100% Motors']);
    expect(await found('%')).toEqual(['Bob 100% Motors']);
    expect(await found('a_s')).toEqual(['Cara_Smith']);
    expect(await found('carter-autos')).toHaveLength(names.length);
    expect(await found('nobody-at-all')).toEqual([]);
  });

  it('exports every matching row as CSV, quoted, with formulas neutralised', async () => {
    const response = await staffGet('/api/contact-submissions?format=csv&limit=1');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toMatch(/^attachment; filename="contact-submissions-\d{4}-\d\d-\d\d\.csv"$/);
    const lines = response.body.replace(/^\uFEFF/, '').trimEnd().split('\r\n');
    expect(lines[0]).toBe('"id","reference","status","note","createdAt","updatedAt","name","email","company","phone","subject","message"');
    expect(lines).toHaveLength(names.length + 1);
    expect(response.body).toContain('"Dee O""Neil"');
    expect(response.body).toContain(`"'=HYPERLINK(""http://evil.example"")"`);
    expect(response.body).not.toMatch(/(^|,)"=/m);

    const filtered = await staffGet('/api/contact-submissions?format=csv&q=stone');
    expect(filtered.body.trimEnd().split('\r\n')).toHaveLength(2);
  });

  it('updates a lead status and note, pushing lead:updated to staff', async () => {
    const socket = await connectStaffSocket(app, cookie);
    try {
      const target = created[0]!;
      const pushed = nextEvent(socket, 'lead:updated');
      const response = await app.inject({
        method: 'PATCH',
        url: `/api/leads/contact/${target.id}`,
        headers: { cookie },
        payload: { status: 'contacted', note: 'Called on Monday' },
      });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ id: target.id, status: 'contacted', note: 'Called on Monday' });
      expect(response.json().updatedAt >= target.createdAt).toBe(true);
      await expect(pushed).resolves.toEqual({ kind: 'contact', item: response.json() });

      const listed = (await staffGet('/api/contact-submissions')).json().find((row: { id: number }) => row.id === target.id);
      expect(listed).toMatchObject({ status: 'contacted', note: 'Called on Monday' });
    } finally {
      socket.disconnect();
    }
  });

  it.each(kinds)('answers a %s PATCH with the whole record of its kind', async (kind) => {
    const created = (await app.inject({ method: 'POST', url: leadPaths[kind].create, payload: validInput[kind]() })).json();
    const response = await app.inject({ method: 'PATCH', url: `/api/leads/${kind}/${created.id}`, headers: { cookie }, payload: { status: 'closed' } });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ ...created, status: 'closed', updatedAt: expect.any(String) });
  });

  it('refuses a lead PATCH that is anonymous, unknown, empty or invalid', async () => {
    const id = created[1]!.id;
    const anonymous = await app.inject({ method: 'PATCH', url: `/api/leads/contact/${id}`, payload: { status: 'closed' } });
    expect(anonymous.statusCode).toBe(401);
    const patch = (url: string, payload: unknown) => app.inject({ method: 'PATCH', url, headers: { cookie }, payload: payload as object });
    expect((await patch('/api/leads/contact/999999', { status: 'closed' })).statusCode).toBe(404);
    expect((await patch(`/api/leads/nonsense/${id}`, { status: 'closed' })).statusCode).toBe(400);
    const badStatus = await patch(`/api/leads/contact/${id}`, { status: 'won' });
    expect(badStatus.statusCode).toBe(400);
    expect(badStatus.json().errors.status).toBe('Status must be new, contacted or closed');
    expect((await patch(`/api/leads/contact/${id}`, {})).statusCode).toBe(400);
    const control = await patch(`/api/leads/contact/${id}`, { note: 'bell \u0007 here' });
    expect(control.json()).toEqual({ message: 'Validation failed', errors: { note: 'Contains characters that are not allowed' } });
    expect((await staffGet('/api/contact-submissions')).json().find((row: { id: number }) => row.id === id).status).toBe('new');
  });

  it('counts every kind and the chat sessions in SQL', async () => {
    const now = new Date().toISOString();
    await app.db
      .insertInto('chatSessions')
      .values([
        { id: 'session_read_0001', visitorId: 'v1', lastSeq: 1, lastMessageAt: now, createdAt: now },
        { id: 'session_unread_01', visitorId: 'v2', lastSeq: 1, lastMessageAt: now, createdAt: now },
      ])
      .execute();
    await app.db
      .insertInto('chatMessages')
      .values([
        { sessionId: 'session_read_0001', message: 'hello', isFromUser: 1, kind: 'visitor', seq: 1, senderEmail: null, senderName: null, clientId: null, createdAt: now },
        { sessionId: 'session_unread_01', message: 'anyone?', isFromUser: 1, kind: 'visitor', seq: 1, senderEmail: null, senderName: null, clientId: null, createdAt: now },
      ])
      .execute();
    await app.db.updateTable('chatSessions').set({ lastReadSeq: 1 }).where('id', '=', 'session_read_0001').execute();

    const response = await staffGet('/api/admin/counts');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ contact: names.length + 1, support: 1, demo: 1, getStarted: 1, chatSessions: 2, unreadChats: 1 });
    expect((await app.inject({ method: 'GET', url: '/api/admin/counts' })).statusCode).toBe(401);
  });
});

describe('one lead by kind and id (GET /api/leads/:kind/:id)', async () => {
  const { app } = await buildTestServer({ ...staffEnv, RATE_LIMIT_ALLOWLIST: '127.0.0.1' });
  const cookie = (await signInStaff(app)).cookie;
  const staffGet = (url: string) => app.inject({ method: 'GET', url, headers: { cookie } });
  const create = async (kind: LeadKind) => (await app.inject({ method: 'POST', url: leadPaths[kind].create, payload: validInput[kind]() })).json();

  it.each(kinds)('answers a %s with every field it stored, its status, note and createdAt', async (kind) => {
    const created = await create(kind);
    const response = await staffGet(`/api/leads/${kind}/${created.id}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual(created);
    // What the dealer typed, not only the list's columns.
    const { _gotcha: _honeypot, agreeToTerms: _agreed, ...typed } = validInput[kind]();
    expect(response.json()).toMatchObject({ ...typed, status: 'new', note: '' });
    expect(new Date(response.json().createdAt).toISOString()).toBe(created.createdAt);
  });

  it('answers the status and note a PATCH left', async () => {
    const created = await create('support');
    await app.inject({ method: 'PATCH', url: `/api/leads/support/${created.id}`, headers: { cookie }, payload: { status: 'contacted', note: 'Sent the fix' } });
    expect((await staffGet(`/api/leads/support/${created.id}`)).json()).toMatchObject({ id: created.id, status: 'contacted', note: 'Sent the fix' });
  });

  it.each(kinds)('refuses a %s lead to a caller without a staff session with 401', async (kind) => {
    const created = await create(kind);
    const response = await app.inject({ method: 'GET', url: `/api/leads/${kind}/${created.id}` });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ message: 'Not authenticated' });
  });

  it('answers an unknown id with 404 JSON', async () => {
    const response = await staffGet('/api/leads/contact/999999');
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ message: 'Lead not found' });
  });

  const badId = 'id must be a whole number from 1 to 2147483647';
  it.each([
    ['an unknown kind', '/api/leads/nonsense/1', 'kind', 'kind must be one of contact, support, demo, get-started'],
    ['an id that is not a number', '/api/leads/contact/abc', 'id', badId],
    ['an id of 0', '/api/leads/contact/0', 'id', badId],
    ['a negative id', '/api/leads/contact/-1', 'id', badId],
    ['a fractional id', '/api/leads/contact/1.5', 'id', badId],
    ['an id in exponent form', '/api/leads/contact/1e3', 'id', badId],
    // Past PostgreSQL's integer column: refused as input, never sent to the database (a 500 there).
    ['an id no row can have', '/api/leads/contact/2147483648', 'id', badId],
    ['an id of 11 digits', '/api/leads/contact/99999999999', 'id', badId],
  ])('answers %s with 400 naming the parameter', async (_case, url, field, message) => {
    const response = await staffGet(url);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message: 'Validation failed', errors: { [field]: message } });
  });

  it('answers the largest id a row can have with 404, not 400', async () => {
    expect((await staffGet('/api/leads/contact/2147483647')).statusCode).toBe(404);
  });

  it('refuses a PATCH to an id no row can have with 400, not a database error', async () => {
    const response = await app.inject({ method: 'PATCH', url: '/api/leads/contact/99999999999', headers: { cookie }, payload: { status: 'closed' } });
    expect(response.statusCode).toBe(400);
  });
});

