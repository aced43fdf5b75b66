import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import {
  type CreatedWebhook,
  type Webhook,
  type WebhookEventType,
  webhookEventTypes,
  type WebhookReceiverState,
} from '../../../../api/contract/admin-operations';
import { Button } from '../../../components/ui/button';
import { operationsApi, operationsKeys } from './operations-api';
import { ErrorNote, when } from './operations-ui';

/** Subscriptions: add one (its secret shown once), send a test event, see its deliveries, remove it. */
export function WebhooksScreen() {
  const queryClient = useQueryClient();
  const webhooks = useQuery({ queryKey: operationsKeys.webhooks, queryFn: operationsApi.webhooks });
  const [created, setCreated] = useState<CreatedWebhook>();
  const refresh = () => queryClient.invalidateQueries({ queryKey: operationsKeys.webhooks });

  return (
    <div className="space-y-6">
      <SubscribeForm
        onCreated={(webhook) => {
          setCreated(webhook);
          void refresh();
        }}
      />
      {created && (
        <section aria-label="New subscription's secret" className="rounded-lg border border-amber-300 bg-amber-50 p-4 text-sm">
          <p className="font-semibold text-amber-900">Copy this secret now: it is not shown again.</p>
          <code className="mt-2 block overflow-x-auto rounded bg-white px-2 py-1 font-mono text-xs break-all text-slate-900" data-testid="webhook-secret">
            {created.secret}
          </code>
          <p className="mt-2 text-amber-900">Your receiver verifies each delivery's X-Lotwise-Signature with it (see the README).</p>
        </section>
      )}
      <ErrorNote error={webhooks.error} />
      {webhooks.data?.length === 0 && <p className="text-sm text-slate-600">No subscriptions yet.</p>}
      <ul className="space-y-3">
        {webhooks.data?.map((webhook) => (
          <WebhookItem key={webhook.id} webhook={webhook} onRemoved={() => void refresh()} />
        ))}
      </ul>
    </div>
  );
}

function SubscribeForm({ onCreated }: { onCreated: (webhook: CreatedWebhook) => void }) {
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<WebhookEventType[]>(['lead.created']);
  const subscribe = useMutation({
    mutationFn: operationsApi.subscribe,
    onSuccess: (webhook) => {
      setUrl('');
      onCreated(webhook);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    subscribe.mutate({ url: url.trim(), events });
  };
  const toggle = (type: WebhookEventType, on: boolean) => setEvents((list) => (on ? [...list, type] : list.filter((each) => each !== type)));

  return (
    <form onSubmit={submit} className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm" aria-label="Subscribe a URL">
      <label htmlFor="webhook-url" className="block text-sm font-semibold text-slate-800">
        Receiver URL
      </label>
      <input
        id="webhook-url"
        type="url"
        required
        value={url}
        onChange={(event) => setUrl(event.target.value)}
        placeholder="https://crm.example.com/hooks/lotwise"
        className="mt-1 w-full rounded-md border border-slate-300 px-3 py-2 text-sm"
      />
      <fieldset className="mt-3">
        <legend className="text-sm font-semibold text-slate-800">Events</legend>
        <div className="mt-1 flex flex-wrap gap-x-4 gap-y-2">
          {webhookEventTypes.map((type) => (
            <label key={type} className="inline-flex items-center gap-2 text-sm text-slate-700">
              <input type="checkbox" checked={events.includes(type)} onChange={(event) => toggle(type, event.target.checked)} />
              {type}
            </label>
          ))}
        </div>
      </fieldset>
      <ErrorNote error={subscribe.error} />
      <Button type="submit" size="sm" className="mt-3" disabled={subscribe.isPending || events.length === 0}>
        Subscribe
      </Button>
    </form>
  );
}

function WebhookItem({ webhook, onRemoved }: { webhook: Webhook; onRemoved: () => void }) {
  const [open, setOpen] = useState(false);
  const queryClient = useQueryClient();
  const deliveries = useQuery({ queryKey: operationsKeys.deliveries(webhook.id), queryFn: () => operationsApi.deliveries(webhook.id), enabled: open, refetchInterval: open ? 3000 : false });
  const test = useMutation({
    mutationFn: () => operationsApi.sendTest(webhook.id),
    onSuccess: () => {
      setOpen(true);
      void queryClient.invalidateQueries({ queryKey: operationsKeys.deliveries(webhook.id) });
    },
  });
  const remove = useMutation({ mutationFn: () => operationsApi.removeWebhook(webhook.id), onSuccess: onRemoved });

  return (
    <li className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
      <p className="font-mono text-sm break-all text-slate-900">{webhook.url}</p>
      <p className="mt-1 text-xs text-slate-600">{webhook.events.join(', ')}</p>
      <ReceiverState receiver={webhook.receiver} />
      <div className="mt-3 flex flex-wrap gap-2">
        <Button size="sm" variant="outline" onClick={() => test.mutate()} disabled={test.isPending}>
          Send test event
        </Button>
        <Button size="sm" variant="outline" onClick={() => setOpen((value) => !value)} aria-expanded={open}>
          {open ? 'Hide deliveries' : 'Deliveries'}
        </Button>
        <Button size="sm" variant="ghost" onClick={() => remove.mutate()} disabled={remove.isPending}>
          Remove
        </Button>
      </div>
      <ErrorNote error={test.error ?? remove.error ?? deliveries.error} />
      {open && (
        <div className="mt-3" aria-label={`Deliveries to ${webhook.url}`} role="region">
          {deliveries.data?.length === 0 && <p className="text-sm text-slate-600">No deliveries yet.</p>}
          <ul className="space-y-2">
            {deliveries.data?.map((delivery) => (
              <li key={delivery.id} className="rounded border border-slate-100 bg-slate-50 p-2 text-xs">
                <p className="font-semibold text-slate-800">
                  {delivery.eventType} · {when(delivery.eventAt)} · {delivery.deliveredAt ? 'delivered' : 'pending'}
                </p>
                <ol className="mt-1 space-y-0.5 text-slate-700">
                  {delivery.attempts.map((attempt) => (
                    <li key={attempt.at}>
                      {when(attempt.at)}: {attempt.statusCode ?? attempt.error} ({attempt.durationMs} ms)
                    </li>
                  ))}
                </ol>
              </li>
            ))}
          </ul>
        </div>
      )}
    </li>
  );
}

/** A failing receiver: since when, the last failure's class, and the pause its deliveries wait out. */
function ReceiverState({ receiver }: { receiver: WebhookReceiverState }) {
  if (receiver.failingSince === null) return null;
  const paused = receiver.pausedUntil !== null && Date.parse(receiver.pausedUntil) > Date.now();
  return (
    <p role="status" className="mt-2 rounded bg-amber-50 px-2 py-1 text-xs text-amber-900">
      Failing since {when(receiver.failingSince)} ({receiver.failures} in a row, last: {receiver.lastFailure ?? 'unknown'})
      {paused && receiver.pausedUntil !== null ? ` · deliveries paused until ${when(receiver.pausedUntil)}` : ' · trying again'}
    </p>
  );
}
