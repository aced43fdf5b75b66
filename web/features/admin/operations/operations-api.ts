import type {
  CreatedWebhook,
  DataExport,
  DeadJob,
  ErasureResult,
  Webhook,
  WebhookDelivery,
  WebhookEventType,
} from '../../../../api/contract/admin-operations';
import { operationsPaths } from '../../../../api/contract/admin-operations';
import { pathTo } from '../../../../api/contract/paths';
import { apiRequest as request } from '../../../lib/api-client';
import { staffCall } from '../api/admin-api';

type Method = Parameters<typeof request>[0];

/** A staff call: a 401 signs the dashboard out, as every other staff call does. */
const apiRequest = <T,>(method: Method, path: string, body?: unknown) => staffCall(() => request<T>(method, path, body));

/** The admins' operating calls (api/modules/webhooks, api/modules/operations). */
export const operationsApi = {
  webhooks: () => apiRequest<Webhook[]>('GET', operationsPaths.webhooks),
  subscribe: (input: { url: string; events: WebhookEventType[] }) => apiRequest<CreatedWebhook>('POST', operationsPaths.webhooks, input),
  removeWebhook: (id: number) => apiRequest<unknown>('DELETE', pathTo(operationsPaths.webhook, { id })),
  sendTest: (id: number) => apiRequest<{ deliveryId: string }>('POST', pathTo(operationsPaths.webhookTest, { id }), {}),
  deliveries: (id: number) => apiRequest<WebhookDelivery[]>('GET', pathTo(operationsPaths.webhookDeliveries, { id })),
  exportData: (email: string) => apiRequest<DataExport>('POST', operationsPaths.dataExport, { email }),
  eraseData: (email: string) => apiRequest<ErasureResult>('POST', operationsPaths.dataErase, { email }),
  deadJobs: () => apiRequest<DeadJob[]>('GET', operationsPaths.deadJobs),
  retryJob: (id: number) => apiRequest<unknown>('POST', pathTo(operationsPaths.jobRetry, { id }), {}),
};

/** The query keys of these screens. */
export const operationsKeys = {
  webhooks: ['operations', 'webhooks'] as const,
  deliveries: (id: number) => ['operations', 'webhooks', id, 'deliveries'] as const,
  deadJobs: ['operations', 'dead-jobs'] as const,
};
