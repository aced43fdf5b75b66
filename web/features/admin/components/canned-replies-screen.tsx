import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ArrowLeft, Pencil, Plus, Trash2 } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import { Link } from 'react-router-dom';
import { type CannedReply, type CannedReplyInput, cannedReplyInputSchema, cannedReplyLimits } from '../../../../api/contract/team-inbox-notes';
import { Button } from '../../../components/ui/button';
import { Field, fieldAria, Input, Textarea } from '../../../components/ui/field';
import { toast } from '../../../components/ui/toast';
import { ApiError } from '../../../lib/api-client';
import { adminApi } from '../api/admin-api';
import { teamInboxApi, teamInboxKeys, useCannedReplies } from '../api/team-inbox-queries';
import { tabPath } from '../lib/admin-paths';
import { isUnauthorized } from '../lib/failures';

type FieldErrors = Partial<Record<keyof CannedReplyInput, string>>;

/** The contract's own messages, field by field, before anything is sent. */
function validate(input: CannedReplyInput): { ok: true; value: CannedReplyInput } | { ok: false; errors: FieldErrors } {
  const parsed = cannedReplyInputSchema.safeParse(input);
  if (parsed.success) return { ok: true, value: parsed.data };
  const errors: FieldErrors = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0] as keyof CannedReplyInput;
    errors[field] ??= issue.message;
  }
  return { ok: false, errors };
}

function CannedReplyForm({ initial, onDone, submitLabel }: { initial: CannedReplyInput & { id?: number }; onDone: () => void; submitLabel: string }) {
  const queryClient = useQueryClient();
  const formId = useId();
  const [title, setTitle] = useState(initial.title);
  const [text, setText] = useState(initial.text);
  const [errors, setErrors] = useState<FieldErrors>({});
  const save = useMutation({
    mutationFn: (input: CannedReplyInput) => (initial.id === undefined ? teamInboxApi.createCannedReply(input) : teamInboxApi.updateCannedReply(initial.id, input)),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: teamInboxKeys.cannedReplies });
      toast({ title: initial.id === undefined ? 'Canned reply added' : 'Canned reply saved', variant: 'success' });
      onDone();
    },
    onError: (error) => {
      if (isUnauthorized(error)) return;
      toast({ title: 'Error', description: error instanceof ApiError ? (error.serverMessage ?? error.message) : 'Could not save it.', variant: 'destructive' });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const checked = validate({ title, text });
    setErrors(checked.ok ? {} : checked.errors);
    if (checked.ok) save.mutate(checked.value);
  };
  return (
    <form onSubmit={submit} noValidate className="space-y-3 rounded-lg border border-slate-200 bg-white p-4">
      <Field id={`${formId}-title`} label="Title" error={errors.title} required>
        <Input {...fieldAria(`${formId}-title`, errors.title)} value={title} maxLength={cannedReplyLimits.titleMaxLength} onChange={(event) => setTitle(event.target.value)} />
      </Field>
      <Field id={`${formId}-text`} label="Text" error={errors.text} hint="{name} and {email} are filled in with the visitor's, when known." required>
        <Textarea {...fieldAria(`${formId}-text`, errors.text, true)} value={text} maxLength={cannedReplyLimits.textMaxLength} onChange={(event) => setText(event.target.value)} />
      </Field>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" size="sm" disabled={save.isPending}>
          {save.isPending ? 'Saving...' : submitLabel}
        </Button>
        <Button type="button" size="sm" variant="outline" onClick={onDone}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

function CannedReplyRow({ reply, canEdit }: { reply: CannedReply; canEdit: boolean }) {
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState(false);
  const remove = useMutation({
    mutationFn: () => teamInboxApi.deleteCannedReply(reply.id),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: teamInboxKeys.cannedReplies });
      toast({ title: 'Canned reply deleted', variant: 'success' });
    },
    onError: (error) => {
      if (!isUnauthorized(error)) toast({ title: 'Error', description: 'Could not delete it.', variant: 'destructive' });
    },
  });
  if (editing) return <CannedReplyForm initial={reply} onDone={() => setEditing(false)} submitLabel="Save" />;
  return (
    <li className="flex flex-col gap-2 rounded-lg border border-slate-200 bg-white p-4 sm:flex-row sm:items-start">
      <div className="min-w-0 flex-1">
        <h3 className="font-semibold text-slate-900">{reply.title}</h3>
        <p className="mt-1 text-sm break-words whitespace-pre-wrap text-slate-700">{reply.text}</p>
      </div>
      {canEdit ? (
        <div className="flex shrink-0 gap-2">
          <Button type="button" size="sm" variant="outline" onClick={() => setEditing(true)} aria-label={`Edit ${reply.title}`}>
            <Pencil className="size-4" aria-hidden="true" />
            Edit
          </Button>
          <Button
            type="button"
            size="sm"
            variant="outline"
            disabled={remove.isPending}
            aria-label={`Delete ${reply.title}`}
            onClick={() => {
              if (window.confirm(`Delete the canned reply "${reply.title}"?`)) remove.mutate();
            }}
          >
            <Trash2 className="size-4" aria-hidden="true" />
            Delete
          </Button>
        </div>
      ) : null}
    </li>
  );
}

/**
 * `/admin/canned-replies`: the team's canned replies. Every staff member reads them here and picks
 * them with `/` in a reply; admins add, edit and delete them.
 */
export function CannedRepliesScreen() {
  const replies = useCannedReplies();
  const session = useQuery({ queryKey: ['staff-account'], queryFn: adminApi.session, staleTime: 60_000 });
  const canEdit = session.data?.admin?.role === 'admin';
  const [adding, setAdding] = useState(false);
  return (
    <section aria-labelledby="canned-replies-title" className="mx-auto max-w-3xl space-y-4">
      <Link to={tabPath('chat')} className="inline-flex items-center gap-1 text-sm font-medium text-brand hover:underline">
        <ArrowLeft className="size-4" aria-hidden="true" />
        Back to the dashboard
      </Link>
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h2 id="canned-replies-title" className="text-lg font-semibold text-slate-900">
            Canned replies
          </h2>
          <p className="text-sm text-slate-600">
            Type <kbd className="rounded border border-slate-300 bg-slate-50 px-1 font-mono">/</kbd> in a reply to pick one.
            {session.data && !canEdit ? ' Only admins can add or change them.' : ''}
          </p>
        </div>
        {canEdit && !adding ? (
          <Button type="button" size="sm" onClick={() => setAdding(true)}>
            <Plus className="size-4" aria-hidden="true" />
            New canned reply
          </Button>
        ) : null}
      </div>
      {adding ? <CannedReplyForm initial={{ title: '', text: '' }} onDone={() => setAdding(false)} submitLabel="Add canned reply" /> : null}
      {replies.isPending ? <p className="text-sm text-slate-500">Loading...</p> : null}
      {replies.data?.length === 0 ? <p className="rounded-lg border border-dashed border-slate-300 p-6 text-center text-sm text-slate-600">No canned replies yet.</p> : null}
      <ul className="space-y-3">
        {replies.data?.map((reply) => <CannedReplyRow key={reply.id} reply={reply} canEdit={canEdit} />)}
      </ul>
    </section>
  );
}
