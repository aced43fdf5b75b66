import { within } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';
import { useChatUi } from '../stores/chat-ui-store';
import { useListFilters } from '../stores/list-filters-store';
import { emptyCounts } from './fake-server';
import { freshQueryClient, seedCounts } from './query-cache';

/** Each test of a table starts from an empty cache and store, zero counts, and real timers and globals after. */
export function freshTablesEachTest(): void {
  beforeEach(() => {
    freshQueryClient();
    useListFilters.getState().reset();
    useChatUi.getState().reset();
    seedCounts(emptyCounts());
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });
}

/** A table's column headers, as read. */
export function headers(table: HTMLElement): string[] {
  return within(table)
    .getAllByRole('columnheader')
    .map((cell) => cell.textContent ?? '');
}
