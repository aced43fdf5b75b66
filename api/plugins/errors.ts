import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { ErrorBody } from '../contract/common';

/** Whether a request URL is the API's (JSON answers) rather than a page's. */
export function isApiUrl(url: string): boolean {
  return url.startsWith('/api/') || url === '/api' || url.startsWith('/api?');
}

/** An error a handler throws on purpose: its status and message reach the client as they are. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly errors?: Record<string, string>,
  ) {
    super(message);
  }
}

/** A refusal on purpose (an HttpError), as the write path tells it from a failure (db/writes.ts). */
export function isHttpError(error: unknown): error is HttpError {
  return error instanceof HttpError;
}

/** The first message for each field, keyed by the field's dotted path (`primaryGoals` for `/primaryGoals/0`). */
function fieldErrors(issues: { instancePath: string; message?: string }[]): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of issues) {
    const [field = '_'] = issue.instancePath.split('/').filter(Boolean);
    const key = field.replace(/^\d+$/, '_');
    errors[key] ??= issue.message ?? 'Invalid value';
  }
  return errors;
}

// Fastify's own codes for what a client sent wrong, with words a person can act on.
const clientErrorMessages: Record<string, string> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Unsupported content type: send application/json',
  FST_ERR_CTP_BODY_TOO_LARGE: 'Request body is too large',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'Request body is empty: send a JSON object',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'Content-Length does not match the body',
  FST_ERR_CTP_INVALID_JSON_BODY: 'Request body is not valid JSON',
};

/** One error shape for the whole API: `{ message, errors? }`; 5xx details are logged, never sent. */
export default fp(
  async (app: FastifyInstance) => {
    app.setErrorHandler((error: FastifyError, request, reply) => {
      if (hasZodFastifySchemaValidationErrors(error)) {
        const body: ErrorBody = { message: 'Validation failed', errors: fieldErrors(error.validation) };
        return reply.code(400).send(body);
      }
      if (error instanceof HttpError) {
        const body: ErrorBody = { message: error.message, ...(error.errors ? { errors: error.errors } : {}) };
        return reply.code(error.statusCode).send(body);
      }
      const status = error.statusCode ?? 500;
      if (status >= 400 && status < 500) {
        const known = clientErrorMessages[error.code];
        const message = known ?? (error.name === 'SyntaxError' ? 'Request body is not valid JSON' : error.message);
        return reply.code(status).send({ message } satisfies ErrorBody);
      }
      request.log.error({ err: error }, 'request failed');
      return reply.code(500).send({ message: 'Something went wrong on our side. Please try again.' } satisfies ErrorBody);
    });

    app.setNotFoundHandler((request, reply) => {
      // Unknown API paths answer JSON; every other path the 404 page (api/web-pages.ts).
      if (isApiUrl(request.url) || !app.hasDecorator('sendNotFoundPage')) {
        return reply.code(404).send({ message: `Not found: ${request.method} ${request.url.split('?')[0]}` } satisfies ErrorBody);
      }
      return app.sendNotFoundPage(reply);
    });
  },
  { name: 'errors' },
);

