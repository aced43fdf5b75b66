import { useId } from 'react';
import { leadNoteMaxLength, leadStatusLabels, leadStatuses, type LeadKind, type LeadStatus } from '../../../../api/contract/leads';
import { noteDraftSubject } from '../lib/drafts';
import { useUpdateLead } from '../api/lead-writes';
import { useDraft } from '../use-draft';

const unsavedHint = 'Unsaved: Enter saves it, Escape discards it.';

const statusClasses: Record<LeadStatus, string> = {
  new: 'border-blue-200 bg-blue-50 text-blue-800',
  contacted: 'border-amber-200 bg-amber-50 text-amber-800',
  closed: 'border-slate-200 bg-slate-100 text-slate-600',
};

/** New, Contacted or Closed; saved as soon as it changes and pushed to the other staff screens. */
export function LeadStatusSelect({ kind, id, status, rowLabel }: { kind: LeadKind; id: number; status: LeadStatus; rowLabel: string }) {
  const updateLead = useUpdateLead();
  return (
    <select
      aria-label={`Status of ${rowLabel}`}
      value={status}
      onChange={(event) => void updateLead(kind, id, { status: event.target.value as LeadStatus })}
      className={`w-full rounded-md border px-2 py-1 text-xs font-medium ${statusClasses[status]}`}
    >
      {leadStatuses.map((value) => (
        <option key={value} value={value}>
          {leadStatusLabels[value]}
        </option>
      ))}
    </select>
  );
}

/**
 * The staff note of a lead, edited in place: saved on Enter or when the field loses focus; Escape
 * drops the edit. Until the server has it, the text is a draft kept in this browser (a sign-out or
 * a failed save loses nothing) and the field says it is unsaved. A change pushed by another staff
 * member shows unless there is a draft.
 */
export function LeadNoteInput({ kind, id, note, rowLabel }: { kind: LeadKind; id: number; note: string; rowLabel: string }) {
  const updateLead = useUpdateLead();
  const [draft, setDraft] = useDraft(noteDraftSubject(kind, id));
  const unsaved = draft !== null && draft !== note;
  const hintId = useId();

  const save = async () => {
    if (draft === null) return;
    const sent = draft;
    if (sent === note || (await updateLead(kind, id, { note: sent }))) {
      // Text typed while the save was under way stays a draft.
      setDraft((current) => (current === sent ? null : current));
    }
  };

  return (
    <>
      <input
        type="text"
        aria-label={`Note for ${rowLabel}`}
        aria-describedby={unsaved ? hintId : undefined}
        title={unsaved ? unsavedHint : undefined}
        placeholder="Add a note"
        value={unsaved ? draft : note}
        maxLength={leadNoteMaxLength}
        onChange={(event) => setDraft(event.target.value)}
        onBlur={() => void save()}
        onKeyDown={(event) => {
          if (event.key === 'Enter') event.currentTarget.blur();
          if (event.key === 'Escape') setDraft(null);
        }}
        className={`w-full rounded-md border px-2 py-1 text-sm hover:border-slate-200 focus:border-brand focus:bg-white focus:outline-none ${
          unsaved ? 'border-amber-400 bg-amber-50' : 'border-transparent bg-transparent'
        }`}
      />
      {unsaved ? (
        <span id={hintId} className="sr-only">
          {unsavedHint}
        </span>
      ) : null}
    </>
  );
}
