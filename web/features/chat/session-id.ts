import { storageKeys } from '../../lib/storage-keys';

// The contract's sessionId rule, as a plain pattern: zod stays out of the chat chunk.
const sessionIdPattern = /^[A-Za-z0-9_-]{8,100}$/;

/**
 * The visitor's conversation id, `session_` + timestamp + random string, kept in local storage so a
 * reload or another page carries on the same conversation.
 */
export function readOrCreateSessionId(): string {
  try {
    const stored = localStorage.getItem(storageKeys.chatSessionId);
    if (stored && sessionIdPattern.test(stored)) return stored;
  } catch {
    // Storage may be blocked; the session then lasts as long as the page.
  }
  const created = `session_${Date.now()}_${Math.random().toString(36).slice(2, 11)}`;
  try {
    localStorage.setItem(storageKeys.chatSessionId, created);
  } catch {
    // As above.
  }
  return created;
}

/** A new conversation id (the visitor starts a new conversation), kept as the current one. */
export function startNewSessionId(): string {
  const created = `session_${Date.now()}_${Math.random().toString(36).slice(2, 11)}`;
  storeSessionId(created);
  return created;
}

/** Makes `sessionId` the current conversation (an earlier one the visitor opened, or a mailed link). */
export function storeSessionId(sessionId: string): void {
  try {
    localStorage.setItem(storageKeys.chatSessionId, sessionId);
  } catch {
    // Storage may be blocked; the choice then lasts as long as the page.
  }
}
