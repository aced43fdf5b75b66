import * as Tabs from '@radix-ui/react-tabs';
import { Bot, Car, DollarSign, Download, Eye, LogOut, MessageSquare, Pencil, Phone, Plus, Timer, TrendingUp, Users } from 'lucide-react';
import { type ReactNode, useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { brand } from '../../../api/contract/brand';
import { Button } from '../../components/ui/button';
import { fetchSession, dealerLogout } from '../../features/dealer/api';
import {
  type LeadStatus,
  sampleActivity,
  sampleLeads,
  sampleStats,
  sampleVehicles,
  type VehicleStatus,
} from '../../features/dealer/sample-data';
import { Logo } from '../../features/marketing/components/logo';
import { PageTitle } from '../../components/ui/page-title';
import { toast } from '../../components/ui/toast';
import { previewToast } from '../../features/dealer/messages';
import { downloadLeadsCsv } from '../../features/dealer/sample-export';

/** A sample button with nothing behind it yet says so, instead of doing nothing. */
const preview = (action: string) => () => toast(previewToast(action));

const money = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 });
const count = new Intl.NumberFormat('en-US');

const vehicleStatusClasses: Record<VehicleStatus, string> = {
  Available: 'bg-emerald-100 text-emerald-800',
  Pending: 'bg-amber-100 text-amber-800',
  Sold: 'bg-slate-200 text-slate-700',
};

const leadStatusClasses: Record<LeadStatus, string> = {
  New: 'bg-blue-100 text-blue-800',
  Contacted: 'bg-amber-100 text-amber-800',
  Qualified: 'bg-emerald-100 text-emerald-800',
  'Proposal Sent': 'bg-violet-100 text-violet-800',
  'Follow-up': 'bg-orange-100 text-orange-800',
};

function StatCard({ icon, label, value }: { icon: ReactNode; label: string; value: string }) {
  return (
    <div className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200">
      <div className="flex items-center justify-between">
        <p className="text-sm font-medium text-slate-600">{label}</p>
        <span className="text-brand">{icon}</span>
      </div>
      <p className="mt-3 text-3xl font-extrabold text-slate-900">{value}</p>
    </div>
  );
}

function DashTab() {
  return (
    <div className="grid gap-6">
      <div className="grid gap-4 sm:grid-cols-3">
        <StatCard icon={<Car className="size-5" aria-hidden="true" />} label="Total Inventory" value={String(sampleStats.totalInventory)} />
        <StatCard icon={<Users className="size-5" aria-hidden="true" />} label="Active Leads" value={String(sampleStats.activeLeads)} />
        <StatCard icon={<DollarSign className="size-5" aria-hidden="true" />} label="Revenue" value={money.format(sampleStats.monthlyRevenue)} />
      </div>
      <div className="grid gap-6 lg:grid-cols-2">
        <section aria-labelledby="activity-title" className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
          <h2 id="activity-title" className="text-lg font-bold text-slate-900">
            Recent Activity
          </h2>
          <ul className="mt-4 divide-y divide-slate-100">
            {sampleActivity.map((item) => (
              <li key={item.id} className="flex justify-between gap-4 py-3 text-sm">
                <span className="text-slate-700">{item.text}</span>
                <span className="shrink-0 text-slate-500">{item.time}</span>
              </li>
            ))}
          </ul>
        </section>
        <section aria-labelledby="ai-title" className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
          <h2 id="ai-title" className="flex items-center gap-2 text-lg font-bold text-slate-900">
            <Bot className="size-5 text-brand" aria-hidden="true" /> AI Performance
          </h2>
          <dl className="mt-4 grid grid-cols-2 gap-4">
            {[
              { icon: Eye, label: 'Website Visitors', value: count.format(sampleStats.websiteVisitors) },
              { icon: MessageSquare, label: 'AI Chat Conversations', value: String(sampleStats.aiChatConversations) },
              { icon: TrendingUp, label: 'Conversion Rate', value: sampleStats.conversionRate },
              { icon: Timer, label: 'Response Time', value: sampleStats.responseTime },
            ].map(({ icon: Icon, label, value }) => (
              <div key={label} className="flex flex-col rounded-xl bg-slate-50 p-4">
                <dt className="flex items-center gap-1.5 text-sm text-slate-600">
                  <Icon className="size-4" aria-hidden="true" /> {label}
                </dt>
                <dd className="mt-1 text-2xl font-bold text-slate-900">{value}</dd>
              </div>
            ))}
          </dl>
        </section>
      </div>
    </div>
  );
}

function InventoryTab() {
  return (
    <section aria-labelledby="inventory-title">
      <div className="flex items-center justify-between gap-4">
        <h2 id="inventory-title" className="text-lg font-bold text-slate-900">
          Inventory
        </h2>
        <Button variant="cta" size="sm" onClick={preview('Adding vehicles')}>
          <Plus className="size-4" aria-hidden="true" /> Add Vehicle
        </Button>
      </div>
      <ul className="mt-4 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {sampleVehicles.map((vehicle) => (
          <li key={vehicle.id} className="flex flex-col rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200">
            <div className="flex aspect-[16/9] items-center justify-center rounded-xl bg-gradient-to-br from-slate-100 to-slate-200">
              <Car className="size-12 text-slate-400" aria-hidden="true" />
            </div>
            <div className="mt-4 flex items-start justify-between gap-2">
              <h3 className="font-semibold text-slate-900">
                {vehicle.year} {vehicle.make} {vehicle.model}
              </h3>
              <span className={`shrink-0 rounded-full px-2.5 py-0.5 text-xs font-semibold ${vehicleStatusClasses[vehicle.status]}`}>{vehicle.status}</span>
            </div>
            <p className="mt-1 text-2xl font-bold text-brand">{money.format(vehicle.price)}</p>
            <p className="text-sm text-slate-600">{count.format(vehicle.mileage)} miles</p>
            <div className="mt-4 grid grid-cols-2 gap-2">
              <Button variant="outline" size="sm" aria-label={`View ${vehicle.year} ${vehicle.make} ${vehicle.model}`} onClick={preview('Vehicle details')}>
                <Eye className="size-4" aria-hidden="true" /> View
              </Button>
              <Button variant="outline" size="sm" aria-label={`Edit ${vehicle.year} ${vehicle.make} ${vehicle.model}`} onClick={preview('Editing vehicles')}>
                <Pencil className="size-4" aria-hidden="true" /> Edit
              </Button>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}

function LeadsTab() {
  return (
    <section aria-labelledby="leads-title">
      <div className="flex items-center justify-between gap-4">
        <h2 id="leads-title" className="text-lg font-bold text-slate-900">
          Leads
        </h2>
        <Button variant="outline" size="sm" onClick={() => downloadLeadsCsv(sampleLeads, 'sample-leads.csv')}>
          <Download className="size-4" aria-hidden="true" /> Export Leads
        </Button>
      </div>
      <ul className="mt-4 grid gap-3">
        {sampleLeads.map((lead) => (
          <li key={lead.id} className="flex flex-col gap-4 rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200 md:flex-row md:items-center">
            <div className="min-w-0 flex-1">
              <div className="flex flex-wrap items-center gap-2">
                <h3 className="font-semibold text-slate-900">{lead.name}</h3>
                <span className={`rounded-full px-2.5 py-0.5 text-xs font-semibold ${leadStatusClasses[lead.status]}`}>{lead.status}</span>
              </div>
              <p className="mt-1 text-sm text-slate-600">
                {lead.email} · {lead.phone}
              </p>
              <p className="mt-1 text-sm text-slate-700">
                Interested in <strong>{lead.interest}</strong> · {lead.time}
              </p>
            </div>
            <div className="flex gap-2">
              <Button variant="brand" size="sm" aria-label={`Contact ${lead.name}`} onClick={preview('Contacting leads')}>
                <Phone className="size-4" aria-hidden="true" /> Contact
              </Button>
              <Button variant="outline" size="sm" aria-label={`View ${lead.name}`} onClick={preview('Lead details')}>
                <Eye className="size-4" aria-hidden="true" /> View
              </Button>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}

const tabTrigger =
  'rounded-md px-2 py-2 text-xs font-bold tracking-wide sm:px-3 sm:text-sm text-slate-300 transition-colors hover:text-white data-[state=active]:bg-white/15 data-[state=active]:text-white';

/**
 * The dealer dashboard (sample data). It is guarded: without a dealer session
 * it sends the visitor to the login page; LOGOUT ends the session on the server.
 */
export function DealerDashboardPage() {
  const navigate = useNavigate();
  const [dealer, setDealer] = useState<{ username: string } | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    fetchSession(controller.signal)
      .then((session) => {
        if (session.dealer) setDealer(session.dealer);
        else void navigate('/dealer-login', { replace: true });
      })
      .catch(() => {
        if (!controller.signal.aborted) void navigate('/dealer-login', { replace: true });
      });
    return () => controller.abort();
  }, [navigate]);

  async function logout() {
    try {
      await dealerLogout();
    } finally {
      void navigate('/');
    }
  }

  if (!dealer) {
    return (
      <div className="flex min-h-dvh items-center justify-center" role="status">
        <span className="size-8 animate-spin rounded-full border-4 border-slate-200 border-t-brand" aria-hidden="true" />
        <span className="sr-only">Loading your dashboard</span>
      </div>
    );
  }

  return (
    <Tabs.Root defaultValue="dash" className="min-h-dvh bg-slate-100">
      <PageTitle title="Dealer Dashboard" />
      <header className="bg-slate-950 text-white">
        <div className="mx-auto flex max-w-7xl flex-wrap items-center justify-between gap-3 px-4 py-3 sm:px-6 lg:px-8">
          <Logo inverted />
          <div className="flex items-center gap-3 text-sm">
            <span className="rounded-full bg-emerald-500/20 px-2.5 py-0.5 text-xs font-semibold text-emerald-300 ring-1 ring-emerald-400/40">Active</span>
            <span className="text-slate-300" data-testid="dealer-username">
              {dealer.username}
            </span>
          </div>
        </div>
        <nav aria-label="Dashboard" className="mx-auto flex max-w-7xl items-center justify-between gap-2 px-4 pb-3 sm:px-6 lg:px-8">
          <Tabs.List aria-label="Dashboard sections" className="flex gap-1">
            <Tabs.Trigger value="dash" className={tabTrigger}>
              DASH
            </Tabs.Trigger>
            <Tabs.Trigger value="inventory" className={tabTrigger}>
              INVENTORY
            </Tabs.Trigger>
            <Tabs.Trigger value="leads" className={tabTrigger}>
              LEADS
            </Tabs.Trigger>
          </Tabs.List>
          <button type="button" onClick={() => void logout()} className={`${tabTrigger} inline-flex items-center gap-1.5`}>
            <LogOut className="hidden size-4 sm:block" aria-hidden="true" /> LOGOUT
          </button>
        </nav>
      </header>
      <main className="mx-auto max-w-7xl px-4 py-8 sm:px-6 lg:px-8">
        <h1 className="text-2xl font-extrabold tracking-tight text-slate-900">Dealer Dashboard</h1>
        <p className="mt-2 mb-6 flex flex-wrap items-center gap-2 text-sm text-slate-600">
          <span className="rounded-full bg-amber-100 px-2.5 py-0.5 text-xs font-semibold text-amber-900">Preview</span>
          Sample data shown. Your live {brand.product} figures appear here once your website launches.
        </p>
        <Tabs.Content value="dash">
          <DashTab />
        </Tabs.Content>
        <Tabs.Content value="inventory">
          <InventoryTab />
        </Tabs.Content>
        <Tabs.Content value="leads">
          <LeadsTab />
        </Tabs.Content>
      </main>
    </Tabs.Root>
  );
}
