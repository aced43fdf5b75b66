import type { LeadKind } from '../../../../api/contract/leads';
import { operationsScreens } from '../operations/operations-paths';
import { cannedRepliesPath } from './team-inbox-paths';

/** The dashboard, under the one `/admin/*` route of web/app/router.tsx. */
export const adminHome = '/admin';

/** The dashboard's tabs: the four lead lists, then the chat sessions. */
export type AdminTab = LeadKind | 'chat';

/** The search parameter naming the open tab: `/admin?tab=support`. The first tab has none. */
export const tabParam = 'tab';
export const firstTab: AdminTab = 'contact';

/** One lead, `/admin/leads/:kind/:id`: a deep link that works after a reload and from a mail. */
const leadAddress = /^\/admin\/leads\/([^/]+)\/([^/]+)\/?$/;

/**
 * The `:kind` and `:id` of a lead's address as they are in the URL (LeadDetail checks them; a valid
 * one needs no decoding), or undefined for any other address. Matched here rather than with the
 * router's `useMatch`, which the entry bundle would then carry for every visitor.
 */
export function matchLeadPath(pathname: string): { kind: string; id: string } | undefined {
  const match = leadAddress.exec(pathname);
  return match ? { kind: match[1]!, id: match[2]! } : undefined;
}

export function leadPath(kind: LeadKind, id: number): string {
  return `/admin/leads/${kind}/${id}`;
}

/** One conversation, `/admin/chats/:sessionId`, open in the chat tab's pane. */
const chatAddress = /^\/admin\/chats\/([^/]+)\/?$/;

/** The `:sessionId` of a conversation's address, decoded (the pane checks it), or undefined for any other address. */
export function matchChatPath(pathname: string): string | undefined {
  const match = chatAddress.exec(pathname);
  if (!match) return undefined;
  try {
    return decodeURIComponent(match[1]!);
  } catch {
    return match[1]!;
  }
}

export function chatPath(sessionId: string): string {
  return `/admin/chats/${encodeURIComponent(sessionId)}`;
}

/** The dashboard showing a tab, e.g. the list a lead was opened from. */
export function tabPath(tab: AdminTab): string {
  return tab === firstTab ? adminHome : `${adminHome}?${tabParam}=${tab}`;
}

/** The admin screens beside the inbox, each a lazy chunk under the one `/admin/*` route. */
export const adminScreenPaths = {
  team: '/admin/team',
  audit: '/admin/audit',
  /** The reports (`?from=&to=`): their chunk carries the chart library. */
  reports: '/admin/reports',
  cannedReplies: cannedRepliesPath,
  webhooks: operationsScreens.webhooks,
  data: operationsScreens.data,
  jobs: operationsScreens.jobs,
} as const;
export type AdminScreen = keyof typeof adminScreenPaths;

/** The admin screen an address shows, or undefined for the inbox (its lists, a lead, a conversation). */
export function matchAdminScreen(pathname: string): AdminScreen | undefined {
  const path = pathname.replace(/\/+$/, '');
  return (Object.keys(adminScreenPaths) as AdminScreen[]).find((screen) => adminScreenPaths[screen] === path);
}

/** The set-password page of an invite link (`/admin/join?token=...`), shown signed in or not. */
export function isJoinPath(pathname: string): boolean {
  return /^\/admin\/join\/?$/.test(pathname);
}
