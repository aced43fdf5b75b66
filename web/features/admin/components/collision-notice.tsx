import { Eye, Lock } from 'lucide-react';
import type { ChatNote } from '../../../../api/contract/team-inbox-notes';
import { LinkedText } from '../../../components/ui/linked-text';
import { formatTime } from '../lib/format';
import { namesList, useOtherTypists, useOtherViewers } from '../stores/collision-store';

/** In the conversation pane: who else has it open, and who of them is typing a reply. */
export function CollisionNotice({ sessionId }: { sessionId: string | null }) {
  const viewers = useOtherViewers(sessionId);
  const typists = useOtherTypists(sessionId);
  const onlyViewing = viewers.filter((name) => !typists.includes(name));
  return (
    <div role="status" aria-live="polite" data-testid="collision" className={viewers.length > 0 ? 'border-b border-amber-200 bg-amber-50 px-4 py-1.5 text-sm text-amber-900' : 'sr-only'}>
      {typists.length > 0 ? (
        <span className="font-medium">
          {namesList(typists)} {typists.length === 1 ? 'is' : 'are'} typing a reply…{' '}
        </span>
      ) : null}
      {onlyViewing.length > 0 ? (
        <span className="inline-flex items-center gap-1">
          <Eye className="size-3.5" aria-hidden="true" />
          {namesList(onlyViewing)} {onlyViewing.length === 1 ? 'is' : 'are'} viewing
        </span>
      ) : null}
    </div>
  );
}

/** In a list row: a small eye when another staff member has the conversation open. */
export function ViewersMark({ sessionId }: { sessionId: string }) {
  const viewers = useOtherViewers(sessionId);
  const typists = useOtherTypists(sessionId);
  if (viewers.length === 0) return null;
  const label = typists.length > 0 ? `${namesList(typists)} typing a reply` : `${namesList(viewers)} viewing`;
  return (
    <span title={label} aria-label={label} role="img" data-testid="viewers-mark" className="inline-flex items-center gap-0.5 rounded bg-amber-100 px-1 text-xs text-amber-900">
      <Eye className="size-3" aria-hidden="true" />
      {viewers.length > 1 ? viewers.length : null}
    </span>
  );
}

/** A private note, in the conversation's order of time but unlike any message: full width, amber, marked Note. */
export function NoteBubble({ note }: { note: ChatNote }) {
  return (
    <li data-from="note" className="rounded-lg border border-dashed border-amber-300 bg-amber-50 px-3 py-2 text-amber-950">
      <p className="flex flex-wrap items-center gap-x-2 text-xs">
        <span className="inline-flex items-center gap-1 rounded bg-amber-200 px-1.5 py-0.5 font-semibold uppercase tracking-wide">
          <Lock className="size-3" aria-hidden="true" />
          Note
        </span>
        <span className="font-semibold">{note.authorName ?? 'Staff'}</span>
        <span>{formatTime(note.createdAt)}</span>
        <span className="text-amber-800">· only staff see this</span>
      </p>
      <p className="mt-1 text-sm break-words whitespace-pre-wrap">
        <LinkedText text={note.text} />
      </p>
    </li>
  );
}
