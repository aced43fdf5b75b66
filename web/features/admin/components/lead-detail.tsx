import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { LeadAssignee } from './assignee-picker';
import { ArrowLeft } from 'lucide-react';
import { type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { timings } from '../../../../api/contract/brand';
import {
  type LeadByKind,
  type LeadKind,
  leadParamsSchema,
  type LeadPatch,
  type LeadStatus,
  leadStatuses,
  leadStatusLabels,
  leadNoteMaxLength,
} from '../../../../api/contract/leads';
import { ApiError } from '../../../lib/api-client';
import { adminApi } from '../api/admin-api';
import { leadQuery } from '../api/lead-queries';
import { applyLeadUpdate } from '../api/lead-writes';
import { tabPath } from '../lib/admin-paths';
import { isUnauthorized, saveFailed } from '../lib/failures';
import { formatDate } from '../lib/format';
import { type LeadField, leadFormPages, leadKindNames, leadSender, sectionsOf } from '../lib/lead-fields';
import { useLiveStatus } from '../stores/live-status-store';
import { PriorityBadge } from './badges';
import { ContactTimelineCard } from './contact-timeline';

const card = 'rounded-lg border border-slate-200 bg-white p-4 sm:p-5';
const termClass = 'text-xs font-semibold tracking-wide text-slate-500 uppercase';
// Visitors type long unbroken emails and URLs: they wrap instead of widening the page on a phone
// (with `min-w-0` on the grid cell that holds them).
const valueClass = 'mt-1 text-sm text-slate-900 break-words';

/**
 * `/admin/leads/:kind/:id`: one lead with every field its form collected, its status and note
 * (editable), when it came and from which page, and the way back to its list. `kind` and `id` are
 * the URL's, checked with the API's own rules before anything is asked.
 */
export function LeadDetail({ kind, id }: { kind: string; id: string }) {
  const params = leadParamsSchema.safeParse({ kind, id });
  const titleId = useId();
  const sectionRef = useRef<HTMLElement>(null);
  // Opening a lead moves keyboard and screen reader users to it.
  useEffect(() => sectionRef.current?.focus(), [kind, id]);

  return (
    <section ref={sectionRef} tabIndex={-1} aria-labelledby={titleId} className="mx-auto max-w-3xl space-y-4 focus:outline-none">
      <Link
        to={tabPath(params.success ? params.data.kind : 'contact')}
        className="inline-flex items-center gap-1.5 text-sm font-medium text-brand hover:underline"
      >
        <ArrowLeft className="size-4" aria-hidden="true" />
        Back to {params.success ? leadKindNames[params.data.kind].list : 'the dashboard'}
      </Link>
      {params.success ? <LeadLoader kind={params.data.kind} id={params.data.id} titleId={titleId} /> : <LeadNotFound titleId={titleId} />}
    </section>
  );
}

function LeadNotFound({ titleId, kind, id }: { titleId: string; kind?: LeadKind; id?: number }) {
  return (
    <div className={card} role="alert">
      <h2 id={titleId} className="text-lg font-semibold text-slate-900">
        Lead not found
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        {kind && id
          ? `There is no ${leadKindNames[kind].one.toLowerCase()} #${id}. The link may be wrong or incomplete.`
          : 'This address names no lead. The link may be wrong or incomplete.'}
      </p>
    </div>
  );
}

function LeadLoader<K extends LeadKind>({ kind, id, titleId }: { kind: K; id: number; titleId: string }) {
  // While pushes cannot arrive, the open lead is read on the lists' offline timer instead.
  const paused = useLiveStatus((state) => state.paused);
  const query = useQuery({ ...leadQuery(kind, id), refetchInterval: paused ? timings.staffOfflineRefreshMs : false });

  if (query.data) return <LeadView kind={kind} lead={query.data} titleId={titleId} />;
  if (query.error instanceof ApiError && query.error.status === 404) return <LeadNotFound titleId={titleId} kind={kind} id={id} />;
  if (query.isError) {
    return (
      <div className={card} role="alert">
        <h2 id={titleId} className="text-lg font-semibold text-slate-900">
          Could not load this lead
        </h2>
        <p className="mt-1 text-sm text-slate-600">Failed to load dashboard data.</p>
        <button
          type="button"
          onClick={() => void query.refetch()}
          className="mt-3 rounded-md border border-slate-300 px-3 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-50"
        >
          Try again
        </button>
      </div>
    );
  }
  return (
    <div className={card} aria-busy="true">
      <h2 id={titleId} className="text-lg font-semibold text-slate-900">
        Loading {leadKindNames[kind].one.toLowerCase()}...
      </h2>
    </div>
  );
}

function LeadView<K extends LeadKind>({ kind, lead, titleId }: { kind: K; lead: LeadByKind[K]; titleId: string }) {
  const page = leadFormPages[kind];
  const company = 'dealershipName' in lead ? lead.dealershipName : lead.company;
  return (
    <>
      <div className={card}>
        <p className="text-sm font-medium text-slate-500">
          {leadKindNames[kind].one} #{lead.id}
        </p>
        <h2 id={titleId} className="mt-1 text-xl font-bold break-words text-slate-900">
          {leadSender(lead)}
        </h2>
        <p className="text-sm break-words text-slate-600">{company}</p>
        <dl className="mt-4 grid gap-4 sm:grid-cols-2">
          <div className="min-w-0">
            <dt className={termClass}>Received</dt>
            <dd className={valueClass}>
              <time dateTime={lead.createdAt}>{formatDate(lead.createdAt)}</time>
            </dd>
          </div>
          <div className="min-w-0">
            <dt className={termClass}>Sent from</dt>
            <dd className={valueClass}>
              {page.name} <span className="text-slate-500">({page.path})</span>
            </dd>
          </div>
        </dl>
        <div className="mt-4">
          <LeadAssignee kind={kind} id={lead.id} assigneeId={lead.assigneeId ?? null} assigneeName={lead.assigneeName ?? null} />
        </div>
      </div>
      <LeadWork kind={kind} lead={lead} />
      <div className={`${card} space-y-6`}>
        {sectionsOf(kind, lead).map((section, index) => (
          <section key={section.title ?? index} aria-label={section.title ?? `What the ${leadKindNames[kind].one.toLowerCase()} says`}>
            {section.title ? <h3 className="mb-3 text-base font-semibold text-slate-900">{section.title}</h3> : null}
            <dl className="grid gap-4 sm:grid-cols-2">
              {section.fields.map((field) => (
                <div key={field.label} className={field.wide ? 'min-w-0 sm:col-span-2' : 'min-w-0'}>
                  <dt className={termClass}>{field.label}</dt>
                  <dd className={valueClass}>{fieldValue(field)}</dd>
                </div>
              ))}
            </dl>
          </section>
        ))}
      </div>
      <ContactTimelineCard email={lead.email} current={{ type: 'lead', kind, id: lead.id }} />
    </>
  );
}

const notGiven = <span className="text-slate-400 italic">Not given</span>;

/** A phone number as a `tel:` link: its digits and a leading +, without an extension. */
function telHref(phone: string): string {
  const [number = ''] = phone.split(/x|ext/i);
  return `tel:${number.replace(/[^\d+]/g, '')}`;
}

function fieldValue({ value }: LeadField): ReactNode {
  switch (value.type) {
    case 'text':
      return value.text || notGiven;
    case 'paragraph':
      return value.text ? <span className="whitespace-pre-wrap">{value.text}</span> : notGiven;
    case 'email':
      return (
        <a href={`mailto:${value.text}`} className="text-brand hover:underline">
          {value.text}
        </a>
      );
    case 'phone':
      return value.text ? (
        <a href={telHref(value.text)} className="text-brand hover:underline">
          {value.text}
        </a>
      ) : (
        notGiven
      );
    case 'list':
      return value.items.length > 0 ? (
        <ul className="grid gap-1">
          {value.items.map((item) => (
            <li key={item}>{item}</li>
          ))}
        </ul>
      ) : (
        <span className="text-slate-400 italic">None selected</span>
      );
    case 'priority':
      return <PriorityBadge priority={value.value} />;
  }
}

/** A PATCH of this lead; its answer goes to the open lead and to the list that holds it. */
function useSaveLead<K extends LeadKind>(kind: K, id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (patch: LeadPatch) => adminApi.patchLead(kind, id, patch),
    onSuccess: (item) => applyLeadUpdate(queryClient, kind, item),
    onError: (error) => {
      if (!isUnauthorized(error)) saveFailed();
    },
  });
}

/** Status and note: what makes a lead work to do. A change pushed by another staff member shows unless the note is being edited. */
function LeadWork<K extends LeadKind>({ kind, lead }: { kind: K; lead: LeadByKind[K] }) {
  const statusSave = useSaveLead(kind, lead.id);
  const noteSave = useSaveLead(kind, lead.id);
  const [noteDraft, setNoteDraft] = useState<string | null>(null);
  const statusId = useId();
  const noteId = useId();
  const shownStatus = (statusSave.isPending ? statusSave.variables.status : undefined) ?? lead.status;
  const note = noteDraft ?? lead.note;
  const noteChanged = noteDraft !== null && noteDraft !== lead.note;

  return (
    <div className={`${card} grid gap-4 sm:grid-cols-3`}>
      <div>
        <label htmlFor={statusId} className={termClass}>
          Status
        </label>
        <select
          id={statusId}
          value={shownStatus}
          onChange={(event) => statusSave.mutate({ status: event.target.value as LeadStatus })}
          className="mt-1 w-full rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm"
        >
          {leadStatuses.map((value) => (
            <option key={value} value={value}>
              {leadStatusLabels[value]}
            </option>
          ))}
        </select>
      </div>
      <div className="sm:col-span-2">
        <label htmlFor={noteId} className={termClass}>
          Note
        </label>
        <textarea
          id={noteId}
          value={note}
          rows={3}
          maxLength={leadNoteMaxLength}
          placeholder="Add a note"
          onChange={(event) => setNoteDraft(event.target.value)}
          className="mt-1 block w-full rounded-md border border-slate-300 px-2 py-1.5 text-sm"
        />
        <div className="mt-2 flex items-center gap-3">
          <button
            type="button"
            disabled={!noteChanged || noteSave.isPending}
            onClick={() => noteSave.mutate({ note: note }, { onSuccess: () => setNoteDraft(null) })}
            className="rounded-md bg-brand px-3 py-1.5 text-sm font-semibold text-white hover:bg-brand-dark disabled:cursor-not-allowed disabled:opacity-50"
          >
            {noteSave.isPending ? 'Saving...' : 'Save note'}
          </button>
          {noteChanged ? (
            <button type="button" onClick={() => setNoteDraft(null)} className="text-sm text-slate-600 hover:underline">
              Discard
            </button>
          ) : null}
        </div>
      </div>
    </div>
  );
}
