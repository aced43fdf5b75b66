import * as Tabs from '@radix-ui/react-tabs';
import { useEffect, useEffectEvent, useState } from 'react';
import type { LeadKind } from '../../../../api/contract/leads';
import { connectAdminSocket, setCurrentAdminSocket } from '../api/admin-socket';
import { createInboxController } from '../inbox-controller';
import { pruneDrafts } from '../lib/drafts';
import { loadInbox, resetInbox, useUnreadChats } from '../inbox-store';
import { bindAdminSocket } from '../realtime';
import { useChatSessions } from '../stores/chat-sessions-store';
import { useLeads } from '../stores/leads-store';
import { useIdleLogout } from '../use-idle-logout';
import { UnreadBadge } from './badges';
import { ChatDialog } from './chat-dialog';
import { ChatSessionsTable } from './chat-sessions-table';
import { type CountCardKey, CountCards } from './count-cards';
import { DashboardHeader } from './dashboard-header';
import { IdleWarningDialog } from './idle-warning-dialog';
import { LeadTable } from './lead-table';

const leadTabs: { kind: LeadKind; title: string }[] = [
  { kind: 'contact', title: 'Contact Forms' },
  { kind: 'support', title: 'Support Tickets' },
  { kind: 'demo', title: 'Demo Requests' },
  { kind: 'get-started', title: 'Get Started Requests' },
];
const chatTab = 'chat';

/** The tab each count card shows. */
const tabOfCard: Record<CountCardKey, LeadKind | typeof chatTab> = {
  contact: 'contact',
  support: 'support',
  demo: 'demo',
  getStarted: 'get-started',
  chatSessions: chatTab,
};

/** A tab's list with the status filter back on All (read again only when it was filtered). */
function clearStatusFilter(tab: LeadKind | typeof chatTab): void {
  if (tab === chatTab) {
    if (useChatSessions.getState().chatStatus !== null) void useChatSessions.getState().filterChats(null);
  } else if (useLeads.getState().leads[tab].status !== null) {
    void useLeads.getState().filterByStatus(tab, null);
  }
}
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
function useInboxLive(openChatTab: () => void): void {
  // A notification click opens the chat tab with whatever the latest render says that means.
  const showChatTab = useEffectEvent(openChatTab);
  useEffect(() => {
    const inbox = createInboxController((sessionId) => {
      showChatTab();
      void useChatSessions.getState().openSession(sessionId);
    });
    const firstLoad = loadInbox();
    const socket = connectAdminSocket();
    setCurrentAdminSocket(socket);
    const unbind = bindAdminSocket(socket, inbox, firstLoad);
    return () => {
      unbind();
      inbox.dispose();
      setCurrentAdminSocket(null);
      socket.disconnect();
      resetInbox();
    };
    // The dashboard mounts once per sign-in: one load and one socket.
  }, []);
}

export function AdminDashboard() {
  const [tab, setTab] = useState<string>('contact');
  const unread = useUnreadChats();
  useIdleLogout();
  useInboxLive(() => setTab(chatTab));
  usePageTitle(unread);
  useEffect(() => pruneDrafts(), []);

  return (
    <div className="min-h-screen bg-slate-50">
      <DashboardHeader />
      <main className="mx-auto max-w-7xl space-y-6 px-4 py-6 sm:px-6">
        <CountCards
          onShow={(card) => {
            const shown = tabOfCard[card];
            setTab(shown);
            clearStatusFilter(shown);
          }}
        />
        <Tabs.Root value={tab} onValueChange={setTab}>
          <Tabs.List aria-label="Submissions" className="flex gap-1 overflow-x-auto border-b border-slate-200">
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
              <LeadTable kind={kind} title={title} />
            </Tabs.Content>
          ))}
          <Tabs.Content value={chatTab} className="pt-4 focus:outline-none">
            <ChatSessionsTable />
          </Tabs.Content>
        </Tabs.Root>
      </main>
      <ChatDialog />
      <IdleWarningDialog />
    </div>
  );
}
