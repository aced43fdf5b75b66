import { describe, expect, it } from 'vitest';
import { leadReference } from '../../contract/after-submit';
import type { LeadKind } from '../../contract/leads';
import { leadPaths } from '../../contract/paths';
import { unknownPlanMessage } from '../../contract/plans';
import { getStartedRequest, validInput } from '../../../test/support/factories';
import { buildTestServer } from '../../../test/support/helper';

const kinds = Object.keys(leadPaths) as LeadKind[];

describe('after a submit: the reference in the 201 and the plan of an application', async () => {
  const { app } = await buildTestServer({ RATE_LIMIT_ALLOWLIST: '127.0.0.1' });
  const post = (kind: LeadKind, payload: object) => app.inject({ method: 'POST', url: leadPaths[kind].create, payload });
  const storedPlan = async (id: number) =>
    (await app.db.selectFrom('getStartedRequests').select('plan').where('id', '=', id).executeTakeFirstOrThrow()).plan;
  const applications = async () => (await app.db.selectFrom('getStartedRequests').select('id').execute()).length;

  it.each([
    ['contact', 'C'],
    ['support', 'S'],
    ['demo', 'D'],
    ['get-started', 'G'],
  ] as const)('a %s answers 201 with its reference LW-%s-<id> beside the stored record', async (kind, letter) => {
    const response = await post(kind, validInput[kind]());
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body.reference).toBe(`LW-${letter}-${body.id}`);
    expect(body.reference).toBe(leadReference(kind, body.id));
    expect(body).toMatchObject({ id: expect.any(Number), status: 'new', email: validInput[kind]().email });
  });

  it('gives each kind its own letter', () => {
    expect(new Set(kinds.map((kind) => leadReference(kind, 7))).size).toBe(kinds.length);
  });

  it('stores the plan picked on a pricing card with the application and answers it', async () => {
    const response = await post('get-started', getStartedRequest({ plan: 'professional' }));
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body.plan).toBe('professional');
    expect(await storedPlan(body.id)).toBe('professional');

    const list = await app.db.selectFrom('getStartedRequests').select(['id', 'plan']).where('id', '=', body.id).execute();
    expect(list).toEqual([{ id: body.id, plan: 'professional' }]);
  });

  it('stores no plan when none was picked, or the form said "not decided" (empty)', async () => {
    const without = (await post('get-started', getStartedRequest())).json();
    expect(without.plan).toBeNull();
    expect(await storedPlan(without.id)).toBeNull();
    const empty = await post('get-started', getStartedRequest({ plan: '' }));
    expect(empty.statusCode).toBe(201);
    expect(await storedPlan(empty.json().id)).toBeNull();
  });

  it.each([['platinum'], ['Professional'], [42], [null]])('refuses an unknown plan (%s) with a 400 naming the plans, and stores nothing', async (plan) => {
    const before = await applications();
    const response = await post('get-started', { ...getStartedRequest(), plan });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message: 'Validation failed', errors: { plan: unknownPlanMessage } });
    expect(await applications()).toBe(before);
  });
});
