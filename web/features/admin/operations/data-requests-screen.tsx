import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { dataRequestSchema, type ErasureResult } from '../../../../api/contract/admin-operations';
import { Button } from '../../../components/ui/button';
import { operationsApi } from './operations-api';
import { ErrorNote } from './operations-ui';

/** Hands the export to the browser as a file. */
function download(name: string, json: unknown): void {
  const url = URL.createObjectURL(new Blob([JSON.stringify(json, null, 2)], { type: 'application/json' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  URL.revokeObjectURL(url);
}

/** A privacy request for one email: export everything stored as JSON, or erase it (asked twice). */
export function DataRequestsScreen() {
  const [email, setEmail] = useState('');
  const [invalid, setInvalid] = useState<string>();
  const [confirming, setConfirming] = useState(false);
  const [summary, setSummary] = useState<string>();
  const exported = useMutation({
    mutationFn: operationsApi.exportData,
    onSuccess: (data) => {
      const rows = Object.values(data.tables).reduce((sum, list) => sum + list.length, 0);
      setSummary(`Exported ${rows} rows and ${data.outbox.length} mails for ${data.email}.`);
      download(`data-${data.email}.json`, data);
    },
  });
  const erased = useMutation({
    mutationFn: operationsApi.eraseData,
    onSuccess: (result: ErasureResult) => {
      setConfirming(false);
      const parts = Object.entries(result.erased).map(([what, count]) => `${what}: ${count}`);
      setSummary(parts.length > 0 ? `Erased for ${result.email}: ${parts.join(', ')}.` : `Nothing was stored for ${result.email}.`);
    },
  });

  /** The email, when valid; otherwise says why. */
  const checked = (): string | undefined => {
    const parsed = dataRequestSchema.safeParse({ email });
    setInvalid(parsed.success ? undefined : parsed.error.issues[0]?.message);
    return parsed.success ? parsed.data.email : undefined;
  };
  const onExport = (event: FormEvent) => {
    event.preventDefault();
    const address = checked();
    if (address) exported.mutate(address);
  };

  return (
    <form onSubmit={onExport} noValidate className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm" aria-label="Data request">
      <label htmlFor="data-email" className="block text-sm font-semibold text-slate-800">
        Email of the person asking
      </label>
      <input
        id="data-email"
        type="email"
        value={email}
        aria-invalid={invalid ? true : undefined}
        aria-describedby={invalid ? 'data-email-error' : undefined}
        onChange={(event) => {
          setEmail(event.target.value);
          setConfirming(false);
        }}
        className="mt-1 w-full rounded-md border border-slate-300 px-3 py-2 text-sm"
      />
      {invalid && (
        <p id="data-email-error" className="mt-1 text-sm text-red-700">
          {invalid}
        </p>
      )}
      <p className="mt-2 text-xs text-slate-600">Leads, chats with their messages, mails and everything else stored for this email, in any case.</p>
      <div className="mt-3 flex flex-wrap gap-2">
        <Button type="submit" size="sm" disabled={exported.isPending}>
          Export as JSON
        </Button>
        {!confirming ? (
          <Button size="sm" variant="outline" onClick={() => checked() && setConfirming(true)}>
            Erase…
          </Button>
        ) : (
          <Button size="sm" variant="cta" onClick={() => erased.mutate(email.trim())} disabled={erased.isPending}>
            Erase everything for {email.trim()}
          </Button>
        )}
      </div>
      {confirming && <p className="mt-2 text-sm text-red-800">This cannot be undone. Press the button again to erase.</p>}
      <ErrorNote error={exported.error ?? erased.error} />
      {summary && (
        <p role="status" className="mt-3 text-sm break-words text-slate-800">
          {summary}
        </p>
      )}
    </form>
  );
}
