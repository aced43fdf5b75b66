import type { ErrorBody } from '../../api/contract/common';

/**
 * An HTTP failure, worded as every generic error toast shows it: `status: response text`
 * (or the status text when the body is empty). `body` holds the parsed JSON error, if any.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly body: ErrorBody | undefined,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  /** The server's own `message`, when it sent one. */
  get serverMessage(): string | undefined {
    return this.body?.message;
  }
}

type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/**
 * The one fetch wrapper of the SPA: credentials always, a JSON content type only with a body,
 * and every non-2xx turned into an ApiError. A network failure rejects with the fetch TypeError.
 */
export async function apiRequest<T>(method: Method, path: string, body?: unknown, init?: { signal?: AbortSignal }): Promise<T> {
  const response = await fetch(path, {
    method,
    credentials: 'include',
    headers: body === undefined ? { accept: 'application/json' } : { accept: 'application/json', 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: init?.signal,
  });
  const text = await response.text();
  if (!response.ok) {
    let parsed: ErrorBody | undefined;
    try {
      parsed = text ? (JSON.parse(text) as ErrorBody) : undefined;
    } catch {
      parsed = undefined;
    }
    throw new ApiError(response.status, `${response.status}: ${text || response.statusText}`, parsed);
  }
  return (text ? JSON.parse(text) : undefined) as T;
}

export const api = {
  get: <T>(path: string, init?: { signal?: AbortSignal }) => apiRequest<T>('GET', path, undefined, init),
  post: <T>(path: string, body: unknown) => apiRequest<T>('POST', path, body),
  patch: <T>(path: string, body: unknown) => apiRequest<T>('PATCH', path, body),
  put: <T>(path: string, body: unknown) => apiRequest<T>('PUT', path, body),
};
