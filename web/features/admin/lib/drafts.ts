import type { LeadKind } from '../../../../api/contract/leads';
import { storageKeys } from '../../../lib/storage-keys';

/**
 * Staff text not yet sent or saved (a reply, a lead note), kept in local storage so a switch to
 * another conversation, a reload or a sign-out loses none of it. Keys are per staff email
 * (adminDraftKey); the storage is the one copy, read on every render that needs it.
 */

/** A draft nobody came back to within a week is dropped: staff text about visitors does not linger in a browser. */
export const draftMaxAgeMs = 7 * 24 * 60 * 60_000;

interface StoredDraft {
  text: string;
  savedAt: number;
}

export function chatDraftSubject(sessionId: string): string {
  return `chat:${sessionId}`;
}

export function noteDraftSubject(kind: LeadKind, id: number): string {
  return `note:${kind}:${id}`;
}

/** Drafts the storage refused (full, or disabled by the browser): kept for this page's life instead. */
const unstored = new Map<string, string | null>();
const listeners = new Set<() => void>();

function parse(raw: string | null): StoredDraft | null {
  if (raw === null) return null;
  try {
    const value = JSON.parse(raw) as Partial<StoredDraft> | null;
    return typeof value?.text === 'string' && typeof value.savedAt === 'number' ? { text: value.text, savedAt: value.savedAt } : null;
  } catch {
    return null;
  }
}

function storedRaw(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

function isFresh(draft: StoredDraft | null, now: number): draft is StoredDraft {
  return draft !== null && now - draft.savedAt < draftMaxAgeMs;
}

/** The draft under `key`, or null: none, or older than a week. */
export function currentDraft(key: string, now = Date.now()): string | null {
  if (unstored.has(key)) return unstored.get(key) ?? null;
  const draft = parse(storedRaw(key));
  return isFresh(draft, now) ? draft.text : null;
}

/** Keeps `text` as the draft under `key` (null: no draft any more) and tells the screens showing it. */
export function keepDraft(key: string, text: string | null, now = Date.now()): void {
  try {
    if (text === null) localStorage.removeItem(key);
    else localStorage.setItem(key, JSON.stringify({ text, savedAt: now } satisfies StoredDraft));
    unstored.delete(key);
  } catch {
    unstored.set(key, text);
  }
  for (const listener of listeners) listener();
}

export function subscribeDrafts(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Removes every draft older than a week (or unreadable), whoever wrote it: run at each sign-in. */
export function pruneDrafts(now = Date.now()): void {
  try {
    const keys = Array.from({ length: localStorage.length }, (_, index) => localStorage.key(index));
    for (const key of keys) {
      if (key?.startsWith(storageKeys.adminDraftPrefix) && !isFresh(parse(localStorage.getItem(key)), now)) localStorage.removeItem(key);
    }
  } catch {
    // No storage: nothing was kept either.
  }
}
