import { useEffect, useState } from 'react';
import { leadStatusLabels, leadStatuses, type LeadKind, type LeadStatus } from '../../../../api/contract/leads';
import { useLeads } from '../stores/leads-store';

const statusClasses: Record<LeadStatus, string> = {
  new: 'border-blue-200 bg-blue-50 text-blue-800',
  contacted: 'border-amber-200 bg-amber-50 text-amber-800',
  closed: 'border-slate-200 bg-slate-100 text-slate-600',
};

/** New, Contacted or Closed; saved as soon as it changes and pushed to the other staff screens. */
export function LeadStatusSelect({ kind, id, status, rowLabel }: { kind: LeadKind; id: number; status: LeadStatus; rowLabel: string }) {
  const updateLead = useLeads((state) => state.updateLead);
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
 * The staff note of a lead, edited in place: saved on Enter or when the field loses focus.
 * A change pushed by another staff member shows unless this field is being edited.
 */
export function LeadNoteInput({ kind, id, note, rowLabel }: { kind: LeadKind; id: number; note: string; rowLabel: string }) {
  const updateLead = useLeads((state) => state.updateLead);
  const [draft, setDraft] = useState(note);
  const [editing, setEditing] = useState(false);
  useEffect(() => {
    if (!editing) setDraft(note);
  }, [note, editing]);

  const save = () => {
    setEditing(false);
    if (draft !== note) void updateLead(kind, id, { note: draft });
  };

  return (
    <input
      type="text"
      aria-label={`Note for ${rowLabel}`}
      placeholder="Add a note"
      value={draft}
      maxLength={5000}
      onFocus={() => setEditing(true)}
      onChange={(event) => setDraft(event.target.value)}
      onBlur={save}
      onKeyDown={(event) => {
        if (event.key === 'Enter') event.currentTarget.blur();
        if (event.key === 'Escape') {
          setDraft(note);
          setEditing(false);
        }
      }}
      className="w-full rounded-md border border-transparent bg-transparent px-2 py-1 text-sm hover:border-slate-200 focus:border-brand focus:bg-white focus:outline-none"
    />
  );
}
