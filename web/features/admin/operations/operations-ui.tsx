import { ApiError } from '../../../lib/api-client';

/** A failed call in words: the server's own message, or that the screen is for admins. */
export function ErrorNote({ error }: { error: unknown }) {
  if (!error) return null;
  const text =
    error instanceof ApiError
      ? error.status === 403
        ? 'Only admins can use this screen.'
        : (error.serverMessage ?? error.message)
      : 'The server could not be reached. Try again.';
  return (
    <p role="alert" className="my-3 rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
      {text}
    </p>
  );
}

export function when(iso: string | null): string {
  return iso ? new Date(iso).toLocaleString('en-US', { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit', second: '2-digit' }) : '—';
}
