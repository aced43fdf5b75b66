import { QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import type { ChatSessionStatus, ChatSessionSummary } from '../../../../api/contract/chat';
import type { AdminCounts, Lead, LeadKind, LeadStatus } from '../../../../api/contract/leads';
import { adminPageSize } from '../api/admin-api';
import { createAdminQueryClient } from '../api/lead-queries';
import { adminQueryKeys } from '../api/live-cache';
import { type ListFilter, noFilter } from '../stores/list-filters-store';

/** A component test's query client: what the server answered before the test starts, seeded as pages. */
export let testQueryClient = createAdminQueryClient();

export function freshQueryClient(): void {
  testQueryClient.clear();
  testQueryClient = createAdminQueryClient();
}

function pages<Row>(rows: Row[], hasMore: boolean) {
  const chunks: Row[][] = [];
  for (let at = 0; at < rows.length; at += adminPageSize) chunks.push(rows.slice(at, at + adminPageSize));
  // A short last page says there is no more.
  if (!hasMore && chunks.at(-1)?.length === adminPageSize) chunks.push([]);
  return { pages: chunks.length > 0 ? chunks : [[]], pageParams: chunks.map((_, index) => (index === 0 ? undefined : `page-${index}`)) };
}

export function seedLeads(kind: LeadKind, rows: Lead[], hasMore = false, filter: ListFilter<LeadStatus> = noFilter): void {
  testQueryClient.setQueryData(adminQueryKeys.leadList(kind, filter), pages(rows, hasMore));
}

export function seedChatSessions(rows: ChatSessionSummary[], filter: ListFilter<ChatSessionStatus> = noFilter): void {
  testQueryClient.setQueryData(adminQueryKeys.chatSessionList(filter), pages(rows, false));
}

export function seedCounts(counts: AdminCounts): void {
  testQueryClient.setQueryData(adminQueryKeys.counts, counts);
}

export function renderWithQueries(ui: ReactNode) {
  return render(<QueryClientProvider client={testQueryClient}>{ui}</QueryClientProvider>);
}
