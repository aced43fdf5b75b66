import { useQuery, useQueryClient } from '@tanstack/react-query';
import { UserCheck } from 'lucide-react';
import { useId, useState } from 'react';
import type { ChatSessionSummary } from '../../../../api/contract/chat';
import type { LeadKind } from '../../../../api/contract/leads';
import { adminApi } from '../api/admin-api';
import { useAssignChat, useAssignees, useAssignLead } from '../api/assignment-queries';

const unassignedValue = '';

/**
 * Who works a conversation or lead: "Assign to me", and a picker of the staff (online ones marked)
 * with Unassigned first. A native select: the phone's own list, and the keyboard's.
 */
export function AssigneePicker({
  assigneeId,
  assigneeName,
  what,
  onAssign,
}: {
  assigneeId: number | null;
  assigneeName: string | null;
  /** What is assigned, for the labels: "conversation", "lead". */
  what: string;
  onAssign: (assigneeId: number | null) => Promise<void>;
}) {
  const { staff, me } = useAssignees();
  const [saving, setSaving] = useState(false);
  const selectId = useId();
  const assign = async (next: number | null) => {
    setSaving(true);
    try {
      await onAssign(next);
    } finally {
      setSaving(false);
    }
  };
  const known = staff.some((member) => member.id === assigneeId);
  return (
    <div className="flex flex-wrap items-center gap-2 text-sm" data-testid="assignee-picker">
      <label htmlFor={selectId} className="font-medium text-slate-600">
        Assignee
      </label>
      <select
        id={selectId}
        value={assigneeId === null ? unassignedValue : String(assigneeId)}
        disabled={saving}
        onChange={(event) => void assign(event.target.value === unassignedValue ? null : Number(event.target.value))}
        className="min-w-0 max-w-[14rem] rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm focus:border-brand focus:ring-2 focus:ring-brand/30 focus:outline-none"
      >
        <option value={unassignedValue}>Unassigned</option>
        {/* The name the row gave, until the staff list comes (or for an account since removed). */}
        {assigneeId !== null && !known ? <option value={String(assigneeId)}>{assigneeName ?? 'Someone'}</option> : null}
        {staff.map((member) => (
          <option key={member.id} value={String(member.id)}>
            {member.name}
            {member.id === me ? ' (you)' : ''}
            {member.online ? ' · online' : ''}
          </option>
        ))}
      </select>
      {me !== null && assigneeId !== me ? (
        <button
          type="button"
          disabled={saving}
          onClick={() => void assign(me)}
          aria-label={`Assign this ${what} to me`}
          className="inline-flex items-center gap-1 rounded-md border border-slate-300 px-2.5 py-1.5 font-medium text-slate-700 hover:bg-slate-50 disabled:opacity-50"
        >
          <UserCheck className="size-4" aria-hidden="true" />
          Assign to me
        </button>
      ) : null}
    </div>
  );
}

/** The open conversation's assignee: its row from the list, else read on its own (a filter may hide it). */
export function ChatAssignee({ sessionId, session }: { sessionId: string; session: ChatSessionSummary | undefined }) {
  const queryClient = useQueryClient();
  const own = useQuery({ queryKey: ['chat-session-row', sessionId], queryFn: () => adminApi.chatSession(sessionId), enabled: session === undefined });
  const row = session ?? own.data;
  const assignChat = useAssignChat();
  if (!row) return null;
  return (
    <div className="border-b border-slate-200 px-4 py-2">
      <AssigneePicker
        assigneeId={row.assigneeId ?? null}
        assigneeName={row.assigneeName ?? null}
        what="conversation"
        onAssign={async (assigneeId) => {
          await assignChat(sessionId, assigneeId);
          void queryClient.invalidateQueries({ queryKey: ['chat-session-row', sessionId] });
        }}
      />
    </div>
  );
}

/** An open lead's assignee. */
export function LeadAssignee({ kind, id, assigneeId, assigneeName }: { kind: LeadKind; id: number; assigneeId: number | null; assigneeName: string | null }) {
  const assignLead = useAssignLead();
  return <AssigneePicker assigneeId={assigneeId} assigneeName={assigneeName} what="lead" onAssign={(next) => assignLead(kind, id, next)} />;
}
