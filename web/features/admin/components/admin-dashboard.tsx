import * as Tabs from '@radix-ui/react-tabs';
import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useCallback, useEffect, useEffectEvent, useRef } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { type LeadKind, leadKinds } from '../../../../api/contract/leads';
import { connectAdminSocket, setCurrentAdminSocket } from '../api/admin-socket';
import { stopCountsRecheck } from '../api/live-cache';
import { prefetchFirstScreen, showAllRows, useUnreadChats } from '../api/queries';
import { createInboxController } from '../inbox-controller';
import { pruneDrafts } from '../lib/drafts';
import { type AdminTab, chatPath, firstTab, leadPath, matchAdminScreen, matchChatPath, matchLeadPath, tabParam, tabPath } from '../lib/admin-paths';
import { leadKindNames } from '../lib/lead-fields';
import { bindAdminSocket } from '../realtime';
import { bindCollision } from '../collision';
import { useChatUi } from '../stores/chat-ui-store';
import { useListFilters } from '../stores/list-filters-store';
import { useIdleLogout } from '../use-idle-logout';
import { useAssignees } from '../api/assignment-queries';
import { useListKeys } from '../lib/list-keys';
import { useAssigneeFilter } from '../stores/assignee-filter-store';
import { UnreadBadge } from './badges';
import { chatSessionIdSchema } from '../../../../api/contract/chat';
import { ChatInbox } from './chat-inbox';
import { type CountCardKey, CountCards } from './count-cards';
import { DashboardHeader } from './dashboard-header';
import { IdleWarningDialog } from './idle-warning-dialog';
import { LeadDetail } from './lead-detail';
import { LeadTable } from './lead-table';

/** The screens beside the inbox, each its own chunk (admin-paths.ts names their addresses). */
const adminScreens = {
  team: lazy(() => import('./team-screen').then((module) => ({ default: module.TeamScreen }))),
  audit: lazy(() => import('./audit-screen').then((module) => ({ default: module.AuditScreen }))),
  // The reports and their chart library load on /admin/reports only.
  reports: lazy(() => import('../reports/reports-page').then((module) => ({ default: module.ReportsPage }))),
  cannedReplies: lazy(() => import('./canned-replies-screen').then((module) => ({ default: module.CannedRepliesScreen }))),
  webhooks: lazy(() => import('../operations/operations-page').then((module) => ({ default: module.WebhooksPage }))),
  data: lazy(() => import('../operations/operations-page').then((module) => ({ default: module.DataRequestsPage }))),
  jobs: lazy(() => import('../operations/operations-page').then((module) => ({ default: module.DeadJobsPage }))),
};

const leadTabs = leadKinds.map((kind) => ({ kind, title: leadKindNames[kind].list }));
const chatTab = 'chat';

function isTab(value: string | null): value is AdminTab {
  return value === chatTab || (leadKinds as readonly (string | null)[]).includes(value);
}

/** The tab each count card shows. */
const tabOfCard: Record<CountCardKey, LeadKind | typeof chatTab> = {
  contact: 'contact',
  support: 'support',
  demo: 'demo',
  getStarted: 'get-started',
  chatSessions: chatTab,
};

const pageTitle = 'Admin Dashboard · Lotwise';

/** Unread conversations in the tab's title, so staff see them from any other tab. */
function usePageTitle(unread: number): void {
  useEffect(() => {
    const previous = document.title;
    return () => {
      document.title = previous;
    };
  }, []);
  useEffect(() => {
    document.title = unread > 0 ? `(${unread}) ${pageTitle}` : pageTitle;
  }, [unread]);
}

/** Loads every list, then keeps them live over the staff socket until sign-out. */
function useInboxLive(openConversation: (sessionId: string) => void): void {
  // A notification click opens its conversation with whatever the latest render says that means.
  const showConversation = useEffectEvent(openConversation);
  const queryClient = useQueryClient();
  useEffect(() => {
    const inbox = createInboxController(queryClient, (sessionId) => showConversation(sessionId));
    const firstLoad = prefetchFirstScreen(queryClient);
    const socket = connectAdminSocket();
    setCurrentAdminSocket(socket);
    const unbind = bindAdminSocket(socket, inbox, firstLoad);
    const unbindCollision = bindCollision(socket, queryClient);
    return () => {
      unbindCollision();
      unbind();
      inbox.dispose();
      setCurrentAdminSocket(null);
      socket.disconnect();
      stopCountsRecheck(queryClient);
      useListFilters.getState().reset();
      useAssigneeFilter.getState().reset();
      useChatUi.getState().reset();
    };
    // The dashboard mounts once per sign-in, and the query client lives as long as the page: one load and one socket.
  }, [queryClient]);
}

/**
 * The open tab lives in the URL (`/admin?tab=support`), so a lead's way back names its list; an
 * open lead is `/admin/leads/:kind/:id`. The lists stay mounted under an open lead, hidden, so
 * going back finds them as they were, and the row that was opened gets the focus again. An open
 * conversation is `/admin/chats/:sessionId`, on the chat tab: the store opens the address's session.
 */
function useDashboardRoute() {
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const { pathname } = useLocation();
  const openLead = matchLeadPath(pathname);
  const openChatId = matchChatPath(pathname);
  const leadOpen = openLead !== undefined;
  const chatOpen = openChatId !== undefined;
  // Under an open lead, the hidden lists are on its kind's tab: the way back finds that list as it was.
  const requested = leadOpen ? openLead.kind : chatOpen ? chatTab : searchParams.get(tabParam);
  const tab: AdminTab = isTab(requested) ? requested : firstTab;

  // Switching tabs replaces the address; leaving an open lead or conversation for a tab is a step of its own.
  const showTab = (value: string) => {
    if (isTab(value)) void navigate(tabPath(value), { replace: !leadOpen && !chatOpen });
  };
  const openConversation = useCallback((sessionId: string) => void navigate(chatPath(sessionId)), [navigate]);
  const closeConversation = useCallback(() => void navigate(tabPath(chatTab)), [navigate]);

  const shownChat = useRef<string | undefined>(undefined);
  useEffect(() => {
    const { openSession, closeSession } = useChatUi.getState();
    const closed = shownChat.current;
    shownChat.current = openChatId;
    if (openChatId !== undefined && chatSessionIdSchema.safeParse(openChatId).success) openSession(openChatId);
    else closeSession();
    // Back at the list, the conversation's View & Reply gets the focus again.
    if (openChatId === undefined && closed !== undefined) {
      document.querySelector<HTMLElement>(`button[data-view-session="${CSS.escape(closed)}"]`)?.focus();
    }
  }, [openChatId]);
  const openedRow = useRef<{ kind: LeadKind; id: number } | null>(null);
  const openLeadRow = useCallback(
    (kind: LeadKind, id: number) => {
      openedRow.current = { kind, id };
      void navigate(leadPath(kind, id));
    },
    [navigate],
  );
  useEffect(() => {
    const opened = openedRow.current;
    if (leadOpen || !opened) return;
    openedRow.current = null;
    const table = document.querySelector(`[role="table"][aria-label="${leadKindNames[opened.kind].list}"]`);
    table?.querySelector<HTMLElement>(`[data-row-key="${opened.id}"]`)?.focus();
  }, [leadOpen]);

  // Esc (lib/list-keys.ts): back to the list, the open row focused again.
  const closeOpen = (): boolean => {
    if (openChatId !== undefined) closeConversation();
    else if (openLead) {
      // The address's kind and id are the lead's own only once they parse; else back to the first tab.
      const kind = (leadKinds as readonly string[]).includes(openLead.kind) ? (openLead.kind as LeadKind) : firstTab;
      if (kind !== chatTab) openedRow.current = { kind, id: Number(openLead.id) };
      void navigate(tabPath(kind));
    } else return false;
    return true;
  };

  return { tab, showTab, openLead, openLeadRow, openChatId, openConversation, closeConversation, closeOpen };
}

export function AdminDashboard() {
  const { tab, showTab, openLead, openLeadRow, openChatId, openConversation, closeConversation, closeOpen } = useDashboardRoute();
  useListKeys(closeOpen);
  // Who is signed in, for Mine and the picker.
  useAssignees();
  const unread = useUnreadChats();
  const queryClient = useQueryClient();
  useIdleLogout();
  useInboxLive(openConversation);
  // On a phone an open conversation takes the screen: the cards and tabs wait below the way Back.
  const phoneChatHidden = openChatId !== undefined ? 'max-lg:hidden' : '';
  usePageTitle(unread);
  useEffect(() => pruneDrafts(), []);
  // Another screen (Team, Audit log) shows over the inbox, which stays mounted and live beneath it.
  const screen = matchAdminScreen(useLocation().pathname);
  const Screen = screen && adminScreens[screen];

  return (
    <div className="min-h-screen bg-slate-50">
      <DashboardHeader />
      <main className="mx-auto max-w-7xl space-y-6 px-4 py-6 sm:px-6">
        {Screen ? (
          <Suspense fallback={<p className="text-sm text-slate-500">Loading...</p>}>
            <Screen />
          </Suspense>
        ) : null}
        {openLead ? <LeadDetail kind={openLead.kind} id={openLead.id} /> : null}
        <div hidden={openLead !== undefined || Screen !== undefined} className="space-y-6">
          <div className={phoneChatHidden}>
            <CountCards
              onShow={(card) => {
                const shown = tabOfCard[card];
                showTab(shown);
                showAllRows(queryClient, shown === chatTab ? 'chats' : shown);
              }}
            />
          </div>
          <Tabs.Root value={tab} onValueChange={showTab}>
            {/* The tabs wrap on a narrow screen: each one, and the chat tab's badge, in view without scrolling sideways. */}
            <Tabs.List aria-label="Submissions" className={`flex flex-wrap gap-x-1 border-b border-slate-200 ${phoneChatHidden}`}>
              {[...leadTabs.map(({ kind, title }) => ({ value: kind, title })), { value: chatTab, title: 'Chat Messages' }].map(
                ({ value, title }) => (
                  <Tabs.Trigger
                    key={value}
                    value={value}
                    className="-mb-px inline-flex items-center gap-1.5 rounded-t-md border-b-2 focus-visible:outline-offset-[-3px] border-transparent px-3 py-2 text-sm font-medium whitespace-nowrap text-slate-600 hover:text-slate-900 data-[state=active]:border-brand data-[state=active]:text-brand"
                  >
                    {title}
                    {value === chatTab ? <UnreadBadge count={unread} /> : null}
                  </Tabs.Trigger>
                ),
              )}
            </Tabs.List>
            {leadTabs.map(({ kind, title }) => (
              <Tabs.Content key={kind} value={kind} className="pt-4 focus:outline-none">
                <LeadTable kind={kind} title={title} onOpen={openLeadRow} />
              </Tabs.Content>
            ))}
            <Tabs.Content value={chatTab} className="pt-4 focus:outline-none">
              <ChatInbox openSessionId={openChatId} onClose={closeConversation} />
            </Tabs.Content>
          </Tabs.Root>
        </div>
      </main>
      <IdleWarningDialog />
    </div>
  );
}
