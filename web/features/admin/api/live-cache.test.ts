import { afterEach, describe, expect, it, vi } from 'vitest';
import { noFilter } from '../stores/list-filters-store';
import { contactRow, fakeServer } from '../test/fake-server';
import { createAdminQueryClient } from './lead-queries';
import { adminQueryKeys, type Pages } from './live-cache';
import { leadListQuery } from './queries';
import { applyLeadUpdate } from './lead-writes';
import type { Lead } from '../../../../api/contract/leads';

afterEach(() => vi.unstubAllGlobals());

describe('a lead list while pushes and re-reads cross', () => {
  const saved = contactRow({ id: 5, status: 'new', updatedAt: '2026-11-25T10:00:00.000Z' });
  const changed = { ...saved, status: 'contacted' as const, updatedAt: '2026-11-25T10:00:05.000Z' };
  const listKey = adminQueryKeys.leadList('contact', noFilter);

  async function listHolding(answer: { current: Lead[] }) {
    const server = fakeServer({ admin: 'staff@lotwise.example' });
    server.on('GET /api/contact-submissions', () => ({ body: answer.current }));
    const queryClient = createAdminQueryClient();
    await queryClient.fetchInfiniteQuery(leadListQuery('contact', noFilter));
    return queryClient;
  }

  it('keeps a pushed change when a page read before it answers after it', async () => {
    const answer = { current: [saved] };
    const queryClient = await listHolding(answer);
    // The re-read is served the row as it was; the change is pushed while it is under way.
    const reread = queryClient.refetchQueries({ queryKey: listKey });
    applyLeadUpdate(queryClient, 'contact', changed);
    await reread;
    expect(queryClient.getQueryData<Pages<Lead>>(listKey)?.pages.flat()).toEqual([changed]);
  });

  it('takes the newer row from a page read after the change', async () => {
    const answer = { current: [saved] };
    const queryClient = await listHolding(answer);
    answer.current = [changed];
    await queryClient.refetchQueries({ queryKey: listKey });
    expect(queryClient.getQueryData<Pages<Lead>>(listKey)?.pages.flat()).toEqual([changed]);
  });

  it('does not let an older push undo a newer row', async () => {
    const queryClient = await listHolding({ current: [changed] });
    applyLeadUpdate(queryClient, 'contact', saved);
    expect(queryClient.getQueryData<Pages<Lead>>(listKey)?.pages.flat()).toEqual([changed]);
  });
});
