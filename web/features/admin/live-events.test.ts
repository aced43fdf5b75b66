import { describe, expect, it } from 'vitest';
import { LeadRowsDraft } from './live-events';
import { contactRow } from './test/fake-server';

describe('a lead list while pushes and re-reads cross', () => {
  const saved = contactRow({ id: 5, status: 'new', updatedAt: '2026-11-25T10:00:00.000Z' });
  const changed = { ...saved, status: 'contacted' as const, updatedAt: '2026-11-25T10:00:05.000Z' };

  it('keeps a pushed change when a page read before it answers after it', () => {
    const draft = new LeadRowsDraft([saved]);
    draft.update(changed);
    draft.mergeFirstPage([saved]);
    expect(draft.result()).toEqual([changed]);
  });

  it('takes the newer row from a page read after the change', () => {
    const draft = new LeadRowsDraft([saved]);
    draft.mergeFirstPage([changed]);
    expect(draft.result()).toEqual([changed]);
  });
});
