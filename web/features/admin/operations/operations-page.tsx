import { PageTitle } from '../../../components/ui/page-title';
import { DataRequestsScreen } from './data-requests-screen';
import { DeadJobsScreen } from './dead-jobs-screen';
import type { OperationsScreen } from './operations-paths';
import { WebhooksScreen } from './webhooks-screen';

const titles: Record<OperationsScreen, string> = { webhooks: 'Webhooks', data: 'Data requests', jobs: 'Dead jobs' };

/** One operating screen for admins, under the dashboard's nav: /admin/webhooks, /admin/data, /admin/jobs. */
export function OperationsPage({ screen }: { screen: OperationsScreen }) {
  return (
    <div className="mx-auto max-w-4xl">
      <PageTitle title={titles[screen]} />
      <h2 className="mb-4 text-2xl font-bold text-slate-900">{titles[screen]}</h2>
      {screen === 'webhooks' && <WebhooksScreen />}
      {screen === 'data' && <DataRequestsScreen />}
      {screen === 'jobs' && <DeadJobsScreen />}
    </div>
  );
}

export const WebhooksPage = () => <OperationsPage screen="webhooks" />;
export const DataRequestsPage = () => <OperationsPage screen="data" />;
export const DeadJobsPage = () => <OperationsPage screen="jobs" />;
