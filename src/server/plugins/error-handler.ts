import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import type { ErrorCode, ErrorResponse } from '../../contract/errors.ts';
import type { Clock } from '../clock.ts';
import type { Db } from '../db/client.ts';
import { createAuditRepository } from '../features/admin/audit.repository.ts';
import { AppError } from '../errors.ts';

const codeByStatus: Record<number, ErrorCode> = {
  400: 'invalid',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  409: 'conflict',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
  503: 'unavailable',
};

/** Renders every error as `{ code, message, issues? }`; only 4xx messages reach the client. */
export function registerErrorHandler(app: FastifyInstance, persist?: { db: Db; clock: Clock }) {
  // Unhandled 5xx go to the error log too, for the assistant's "View Error Logs"; a failed write is only logged.
  const audit = persist ? createAuditRepository(persist.db) : null;
  const keep = (err: Error, req: { method: string; url: string; log: { error: (o: object, m: string) => void } }) =>
    audit
      ?.recordError({ origin: 'http', message: err.message || 'Internal Server Error', detail: { method: req.method, url: req.url.split('?')[0], name: err.name }, at: persist!.clock.now() })
      .catch((e: unknown) => req.log.error({ err: e }, 'error log write failed'));
  app.setErrorHandler((err: FastifyError, req, reply) => {
    if (err instanceof AppError) {
      const body: ErrorResponse = { code: err.code, message: err.message, ...(err.issues ? { issues: err.issues } : {}) };
      return reply.status(err.status).headers(err.headers).send(body);
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const where = err.validationContext ?? 'body';
      const issues = err.validation.map((v) => {
        const path = [where, ...(v.instancePath ? v.instancePath.split('/').filter(Boolean) : [])].join('.');
        // No body at all (none sent, or an empty JSON one) where the route needs one.
        if (path === 'body' && /expected object, received (null|undefined)/.test(v.message ?? '')) return { path, message: 'is required: send a JSON object' };
        return { path, message: v.message ?? 'is invalid' };
      });
      const message = issues.map((i) => `${i.path}: ${i.message}`).join('; ');
      const body: ErrorResponse = { code: 'invalid', message, issues };
      return reply.status(400).send(body);
    }
    if (isResponseSerializationError(err)) {
      req.log.error({ err, issues: err.cause.issues }, 'response did not match its schema');
      void keep(err, req);
      return reply.status(500).send({ code: 'internal', message: 'Internal Server Error' } satisfies ErrorResponse);
    }
    const status = typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
    if (status === 500) {
      req.log.error({ err }, 'unexpected error');
      void keep(err, req);
      return reply.status(500).send({ code: 'internal', message: 'Internal Server Error' } satisfies ErrorResponse);
    }
    let message = err.message;
    if (err.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || err instanceof SyntaxError) message = 'body: is not valid JSON';
    if (status === 413) message = 'body: is too large';
    if (status === 415) message = 'body: must be sent as application/json';
    const body: ErrorResponse = { code: codeByStatus[status] ?? 'invalid', message };
    return reply.status(status).send(body);
  });
}
