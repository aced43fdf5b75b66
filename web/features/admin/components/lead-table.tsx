import { Download } from 'lucide-react';
import { useCallback, useMemo } from 'react';
import {
  contactSubjects,
  inventorySizes,
  launchTimelines,
  supportCategories,
  type LeadByKind,
  type LeadKind,
  type LeadStatus,
  leadStatuses,
  leadStatusLabels,
} from '../../../../api/contract/leads';
import type { AssigneeFilter } from '../../../../api/contract/assignment';
import { leadCsvHref } from '../api/admin-api';
import { countKeys } from '../api/live-cache';
import { useAdminCounts, useLeadList } from '../api/queries';
import { formatDate, optionLabel } from '../lib/format';
import { PriorityBadge } from './badges';
import { LeadNoteInput, LeadStatusSelect } from './lead-cells';
import { SearchBox } from './search-box';
import { StatusFilter, type StatusFilterOption } from './status-filter';
import { AssigneeFilterBar } from './assignee-filter';
import { AssigneeName } from './assignee-name';
import { useAssigneeFilter } from '../stores/assignee-filter-store';
import { type Column, VirtualTable } from './virtual-table';

type Columns<K extends LeadKind> = Column<LeadByKind[K]>[];

function text(value: string | null | undefined) {
  return <span title={value ?? undefined}>{value ?? ''}</span>;
}

/** The columns of each tab, then the status and note that make a lead work to do. */
export const leadColumns: { [K in LeadKind]: Columns<K> } = {
  contact: [
    { key: 'name', header: 'Name', width: '10rem', cell: (row) => text(row.name) },
    { key: 'email', header: 'Email', width: '13rem', cell: (row) => text(row.email) },
    { key: 'company', header: 'Company', width: '10.5rem', cell: (row) => text(row.company) },
    { key: 'subject', header: 'Subject', width: '10.5rem', cell: (row) => text(optionLabel(contactSubjects, row.subject)) },
    { key: 'date', header: 'Date', width: '12rem', cell: (row) => formatDate(row.createdAt) },
  ],
  support: [
    { key: 'name', header: 'Name', width: '9rem', cell: (row) => text(row.name) },
    { key: 'email', header: 'Email', width: '12rem', cell: (row) => text(row.email) },
    { key: 'priority', header: 'Priority', width: '6rem', cell: (row) => <PriorityBadge priority={row.priority} /> },
    { key: 'category', header: 'Category', width: '9.5rem', cell: (row) => text(optionLabel(supportCategories, row.category)) },
    { key: 'subject', header: 'Subject', width: '10rem', cell: (row) => text(row.subject) },
    { key: 'date', header: 'Date', width: '12rem', cell: (row) => formatDate(row.createdAt) },
  ],
  demo: [
    { key: 'name', header: 'Name', width: '10rem', cell: (row) => text(row.name) },
    { key: 'email', header: 'Email', width: '13rem', cell: (row) => text(row.email) },
    { key: 'company', header: 'Company', width: '10.5rem', cell: (row) => text(row.company) },
    { key: 'phone', header: 'Phone', width: '9rem', cell: (row) => text(row.phone) },
    { key: 'date', header: 'Date', width: '12rem', cell: (row) => formatDate(row.createdAt) },
  ],
  'get-started': [
    { key: 'name', header: 'Name', width: '8.5rem', cell: (row) => text(`${row.firstName} ${row.lastName}`) },
    { key: 'email', header: 'Email', width: '11.5rem', cell: (row) => text(row.email) },
    { key: 'dealership', header: 'Dealership', width: '9rem', cell: (row) => text(row.dealershipName) },
    { key: 'phone', header: 'Phone', width: '8.5rem', cell: (row) => text(row.phone) },
    { key: 'inventory', header: 'Inventory Size', width: '7.5rem', cell: (row) => text(optionLabel(inventorySizes, row.inventorySize)) },
    { key: 'launch', header: 'Launch Date', width: '9rem', cell: (row) => text(optionLabel(launchTimelines, row.launchDate)) },
    { key: 'date', header: 'Date Submitted', width: '12rem', cell: (row) => formatDate(row.createdAt) },
  ],
};

/** How a row is named in its controls' labels ("Status of Jane Doe"). */
function rowLabel(row: LeadByKind[LeadKind]): string {
  return 'firstName' in row ? `${row.firstName} ${row.lastName}` : row.name;
}

function workColumns<K extends LeadKind>(kind: K): Columns<K> {
  return [
    { key: 'assignee', header: 'Assignee', width: '8rem', cell: (row) => <AssigneeName name={row.assigneeName} /> },
    {
      key: 'status',
      header: 'Status',
      width: '8rem',
      control: true,
      cell: (row) => <LeadStatusSelect kind={kind} id={row.id} status={row.status} rowLabel={rowLabel(row)} />,
    },
    {
      key: 'note',
      header: 'Note',
      width: '10rem',
      control: true,
      cell: (row) => <LeadNoteInput kind={kind} id={row.id} note={row.note} rowLabel={rowLabel(row)} />,
    },
  ];
}

/** What an empty list lacks under its filters; "yet" only when nothing is filtered out. */
function emptyLeadsText(title: string, query: string, status: LeadStatus | null, assignee: AssigneeFilter): string {
  const kind = [status ? leadStatusLabels[status].toLowerCase() : '', assignee === 'unassigned' ? 'unassigned' : '', title.toLowerCase()].filter(Boolean).join(' ');
  const what = assignee === 'mine' ? `${kind} assigned to you` : kind;
  if (query) return `No ${what} match "${query}".`;
  return status || assignee !== 'all' ? `No ${what}.` : `No ${what} yet.`;
}

/** All, then the spec's lead statuses, each with the server's figure. */
function useLeadStatusOptions(kind: LeadKind): StatusFilterOption<LeadStatus>[] {
  const counts = useAdminCounts();
  const key = countKeys[kind];
  return [
    { value: null, label: 'All', count: counts?.[key] },
    ...leadStatuses.map((status) => ({ value: status, label: leadStatusLabels[status], count: counts?.byStatus[key][status] })),
  ];
}

/** One tab's list; `onOpen` opens a row's lead (the dashboard's `/admin/leads/:kind/:id`). */
export function LeadTable<K extends LeadKind>({ kind, title, onOpen }: { kind: K; title: string; onOpen?: (kind: K, id: number) => void }) {
  const list = useLeadList(kind);
  const assignee = useAssigneeFilter((state) => state.assignee);
  const { search, filterByStatus, loadMore } = list;
  const statusOptions = useLeadStatusOptions(kind);
  const onEndReached = useCallback(() => loadMore(), [loadMore]);
  const columns = useMemo(() => [...(leadColumns[kind] as Columns<K>), ...workColumns(kind)], [kind]);
  const onRowOpen = useMemo(() => (onOpen ? (row: LeadByKind[K]) => onOpen(kind, row.id) : undefined), [kind, onOpen]);

  return (
    <div className="space-y-3">
      <div className="flex flex-wrap gap-2">
        <AssigneeFilterBar />
        <StatusFilter
          label={`Filter ${title} by status`}
          options={statusOptions}
          selected={list.status}
          onSelect={(status) => filterByStatus(status)}
        />
      </div>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <SearchBox
          label={`Search ${title}`}
          placeholder="Search name, email, company, subject"
          initial={list.query}
          onSearch={(query) => search(query)}
        />
        <a
          href={leadCsvHref(kind, list.query, list.status, assignee)}
          download
          className="inline-flex items-center gap-1.5 rounded-md border border-slate-300 px-3 py-2 text-sm font-medium text-slate-700 hover:bg-slate-50"
        >
          <Download className="size-4" aria-hidden="true" />
          Export CSV
        </a>
      </div>
      <VirtualTable<LeadByKind[K]>
        label={title}
        rows={list.rows}
        rowKey={(row) => row.id}
        columns={columns}
        hasMore={list.hasMore}
        loading={list.loading}
        loadingMore={list.loadingMore}
        onEndReached={onEndReached}
        onRowOpen={onRowOpen}
        emptyText={emptyLeadsText(title, list.query, list.status, assignee)}
      />
    </div>
  );
}
