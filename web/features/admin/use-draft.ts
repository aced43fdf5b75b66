import { useCallback, useState, useSyncExternalStore } from 'react';
import { adminDraftKey } from '../../lib/storage-keys';
import { currentDraft, keepDraft, subscribeDrafts } from './lib/drafts';
import { useStaffSession } from './session-store';

type DraftUpdate = string | null | ((current: string | null) => string | null);

/**
 * The draft of `subject` (see lib/drafts.ts) for the signed-in staff member, null when there is
 * none; setting it keeps it in this browser at once. Without a staff email to file it under, it is
 * held by this component only.
 */
export function useDraft(subject: string | null): [draft: string | null, setDraft: (update: DraftUpdate) => void] {
  const email = useStaffSession((state) => state.email);
  const key = email && subject ? adminDraftKey(email, subject) : null;
  const kept = useSyncExternalStore(subscribeDrafts, () => (key ? currentDraft(key) : null));
  const [held, setHeld] = useState<string | null>(null);
  const setDraft = useCallback(
    (update: DraftUpdate) => {
      if (key) keepDraft(key, typeof update === 'function' ? update(currentDraft(key)) : update);
      else setHeld(update);
    },
    [key],
  );
  return [key ? kept : held, setDraft];
}
