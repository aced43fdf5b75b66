import { Link } from 'react-router-dom';
import { PageTitle } from '../../../components/ui/page-title';
import { adminHome } from '../lib/admin-paths';
import { DataRequestsScreen } from './data-requests-screen';
import { DeadJobsScreen } from './dead-jobs-screen';
import type { OperationsScreen } from './operations-paths';
import { WebhooksScreen } from './webhooks-screen';

const titles: Record<OperationsScreen, string> = { webhooks: 'Webhooks', data: 'Data requests', jobs: 'Dead jobs' };

/** One operating screen for admins: /admin/webhooks, /admin/data, /admin/jobs. */
export function OperationsPage({ screen }: { screen: OperationsScreen }) {
  return (
    <main className="min-h-screen bg-slate-50 px-4 py-6 sm:px-8">
      <PageTitle title={titles[screen]} />
      <div className="mx-auto max-w-4xl">
        <Link to={adminHome} className="text-sm font-medium text-brand hover:underline">
          ← Dashboard
        </Link>
        <h1 className="mt-2 mb-4 text-2xl font-bold text-slate-900">{titles[screen]}</h1>
        {screen === 'webhooks' && <WebhooksScreen />}
        {screen === 'data' && <DataRequestsScreen />}
        {screen === 'jobs' && <DeadJobsScreen />}
      </div>
    </main>
  );
}
