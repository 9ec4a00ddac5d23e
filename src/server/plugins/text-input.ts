import type { FastifyInstance } from 'fastify';
import { invalid } from '../errors.ts';

/** Where in a parsed body, query or path the first string holding NUL (U+0000) is, e.g. `body.items.2.name`. */
export function nulPath(value: unknown, path: string): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path : null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = nulPath(value[i], `${path}.${i}`);
      if (found) return found;
    }
    return null;
  }
  if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      const found = nulPath(k, `${path}.${k}`) ?? nulPath(v, `${path}.${k}`);
      if (found) return found;
    }
  }
  return null;
}

/**
 * PostgreSQL text cannot hold NUL, so a request carrying one in any string failed in the database
 * (500). It gets 400 naming the field instead, after the access check (onRequest) and before the
 * route's own validation, on every route.
 */
export function registerTextInputCheck(app: FastifyInstance) {
  app.addHook('preValidation', async (req) => {
    const where = nulPath(req.params, 'params') ?? nulPath(req.query, 'query') ?? nulPath(req.body, 'body');
    if (where) throw invalid(`${where}: must not contain the NUL character`);
  });
}
