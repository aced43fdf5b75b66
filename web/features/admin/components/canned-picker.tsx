import { type KeyboardEvent, type RefObject, useId, useState } from 'react';
import { Link } from 'react-router-dom';
import { type CannedReply, type CannedReplyVisitor, fillCannedReply } from '../../../../api/contract/team-inbox-notes';
import { cannedRepliesPath } from '../lib/team-inbox-paths';

/** The `/word` being typed at the caret: a `/` at the start of the box or after a space, up to the caret, on one line. */
export interface SlashQuery {
  start: number;
  end: number;
  query: string;
}

export function slashQueryAt(text: string, caret: number): SlashQuery | null {
  const before = text.slice(0, caret);
  const match = /(^|\s)\/([^\n/]*)$/.exec(before);
  if (!match) return null;
  const query = match[2]!;
  return { start: caret - query.length - 1, end: caret, query };
}

/** The replies whose title (first) or text holds every word of the query, in any case. */
export function matchCannedReplies(replies: readonly CannedReply[], query: string): CannedReply[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  const holds = (text: string) => words.every((word) => text.toLowerCase().includes(word));
  const byTitle = replies.filter((reply) => holds(reply.title));
  const byText = replies.filter((reply) => !byTitle.includes(reply) && holds(reply.text));
  return [...byTitle, ...byText];
}

interface PickerOptions {
  value: string;
  onChange: (value: string) => void;
  replies: readonly CannedReply[];
  visitor: CannedReplyVisitor;
  textareaRef: RefObject<HTMLTextAreaElement | null>;
  /** Off in note mode: the picker fills replies to the visitor. */
  enabled?: boolean;
}

/**
 * The `/` picker of the reply box: typing `/` at its start or after a space lists the team's canned
 * replies, filtered by what follows; Up/Down move, Enter or Tab inserts the chosen reply with
 * `{name}`/`{email}` filled, Esc closes. The box keeps the focus (the list is its
 * `aria-activedescendant`), so typing goes on filtering.
 */
export function useCannedPicker({ value, onChange, replies, visitor, textareaRef, enabled = true }: PickerOptions) {
  const listId = useId();
  const [caret, setCaret] = useState<number | null>(null);
  const [dismissedAt, setDismissedAt] = useState<number | null>(null);
  const [active, setActive] = useState({ query: '', index: 0 });
  const slash = enabled && caret !== null ? slashQueryAt(value, Math.min(caret, value.length)) : null;
  const matches = slash ? matchCannedReplies(replies, slash.query) : [];
  // A slash in ordinary writing ("1 / 2 days") stops looking like a pick once nothing matches past a space.
  const open = slash !== null && slash.start !== dismissedAt && !(matches.length === 0 && /\s/.test(slash.query));
  const activeIndex = slash && active.query === slash.query ? Math.min(active.index, Math.max(matches.length - 1, 0)) : 0;
  const optionId = (reply: CannedReply) => `${listId}-option-${reply.id}`;

  const choose = (reply: CannedReply) => {
    if (!slash) return;
    const filled = fillCannedReply(reply.text, visitor);
    const position = slash.start + filled.length;
    onChange(value.slice(0, slash.start) + filled + value.slice(slash.end));
    setCaret(position);
    requestAnimationFrame(() => {
      textareaRef.current?.focus();
      textareaRef.current?.setSelectionRange(position, position);
    });
  };

  /** True when the key was the picker's (the box must not act on it too). */
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>): boolean => {
    if (!open || !slash || event.nativeEvent.isComposing) return false;
    const move = (step: number) => setActive({ query: slash.query, index: matches.length === 0 ? 0 : (activeIndex + step + matches.length) % matches.length });
    if (event.key === 'ArrowDown') move(1);
    else if (event.key === 'ArrowUp') move(-1);
    else if ((event.key === 'Enter' || event.key === 'Tab') && !event.shiftKey && matches[activeIndex]) choose(matches[activeIndex]);
    else if (event.key === 'Escape') setDismissedAt(slash.start);
    else return false;
    event.preventDefault();
    event.stopPropagation();
    return true;
  };

  /** Where the caret is: the box's change, click and key-up events report it. */
  const track = (element: HTMLTextAreaElement) => setCaret(element.selectionStart);

  const inputProps = {
    'aria-autocomplete': 'list' as const,
    'aria-controls': open ? listId : undefined,
    'aria-activedescendant': open && matches[activeIndex] ? optionId(matches[activeIndex]) : undefined,
  };

  const picker = open ? (
    <div className="absolute inset-x-2 bottom-full z-20 mb-1 max-h-64 overflow-y-auto rounded-md border border-slate-200 bg-white shadow-lg sm:inset-x-4">
      <p className="border-b border-slate-100 px-3 py-1.5 text-xs text-slate-500">
        Canned replies{slash?.query ? ` matching “${slash.query}”` : ''} · ↑↓ to move, Enter to insert, Esc to close
      </p>
      <ul id={listId} role="listbox" aria-label="Canned replies">
        {matches.map((reply, index) => (
          <li
            key={reply.id}
            id={optionId(reply)}
            role="option"
            aria-selected={index === activeIndex}
            // Picked with the mouse without taking the focus from the box.
            onMouseDown={(event) => {
              event.preventDefault();
              choose(reply);
            }}
            onMouseMove={() => slash && setActive({ query: slash.query, index })}
            className={`cursor-pointer px-3 py-2 text-sm ${index === activeIndex ? 'bg-brand/10' : ''}`}
          >
            <span className="block font-medium text-slate-900">{reply.title}</span>
            <span className="block truncate text-xs text-slate-500">{fillCannedReply(reply.text, visitor)}</span>
          </li>
        ))}
      </ul>
      {matches.length === 0 ? (
        <p className="px-3 py-2 text-sm text-slate-500">
          {replies.length === 0 ? 'No canned replies yet. ' : 'No canned reply matches. '}
          <Link to={cannedRepliesPath} className="font-medium text-brand underline">
            Canned replies
          </Link>
        </p>
      ) : null}
    </div>
  ) : null;

  return { onKeyDown, track, inputProps, picker, open };
}
