import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Clock } from '../../clock.ts';
import type { AuditRepository } from './audit.repository.ts';

const STATE_CHANGING = new Set(['POST', 'PATCH', 'PUT', 'DELETE']);
/** Body fields never copied into the log. */
const SECRET_KEY = /pass|secret|token|key|csv|content|image|photo/i;

declare module 'fastify' {
  interface FastifyRequest {
    /** The answer's object, kept by the audit hook for the created id or the signed-in user. */
    auditAnswer?: Record<string, unknown>;
  }
  interface FastifyContextConfig {
    /** Audit this route's reads too (a backup hands over every account's data). */
    auditReads?: boolean;
  }
  interface FastifyInstance {
    /** Every route registered after the audit plugin, and whether it is rate limited (for the security report). */
    routeInventory: readonly { method: string; url: string; rateLimited: boolean }[];
  }
}

/** 'events' -> 'event', 'duplicates' -> 'duplicate', 'activities' -> 'activity'. */
function singular(segment: string): string {
  if (segment.endsWith('ies')) return `${segment.slice(0, -3)}y`;
  if (segment.endsWith('s')) return segment.slice(0, -1);
  return segment;
}

/**
 * The target of an action from its route: each param named after the segment before it
 * (`/api/admin/events/:id/approve` -> `event:<id>`), else the id a create answered with.
 */
export function auditTarget(url: string, params: Record<string, unknown>, createdId?: string): string | null {
  const segments = url.split('/').filter(Boolean);
  const parts: string[] = [];
  segments.forEach((seg, i) => {
    if (!seg.startsWith(':')) return;
    const name = seg.slice(1);
    const value = params[name];
    if (value === undefined) return;
    const before = segments[i - 1];
    const kind = name === 'id' && before && !before.startsWith(':') ? singular(before) : name.replace(/Id$/, '');
    parts.push(`${kind}:${String(value)}`);
  });
  if (parts.length) return parts.join(',');
  const last = segments.at(-1);
  return createdId && last ? `${singular(last)}:${createdId}` : null;
}

/** Small, flat, non-secret bodies (a role change, a patch) are kept as what was asked. */
function requestSummary(body: unknown): Record<string, unknown> | undefined {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(body)) {
    if (SECRET_KEY.test(k)) continue;
    if (v === null || typeof v === 'boolean' || typeof v === 'number' || (typeof v === 'string' && v.length <= 200)) out[k] = v;
  }
  return Object.keys(out).length ? out : undefined;
}

/** Whether a request is an admin's action on an admin route or an owner-or-admin route. */
function isAuditable(req: FastifyRequest): boolean {
  const config = req.routeOptions.config;
  if (!STATE_CHANGING.has(req.method) && !config.auditReads) return false;
  if (req.user?.role !== 'admin') return false;
  return config.access === 'admin' || typeof config.guard === 'function';
}

/**
 * Writes every state-changing request an admin makes on an admin (or guarded) route, and the
 * reads a route marks `auditReads` (a backup download), to the append-only audit log once the
 * answer is sent: who, what (method and route), on which target, and how it ended ('ok' 2xx,
 * 'refused' 4xx, 'failed' 5xx). Admins' sign-in and sign-out too.
 */
export const auditPlugin = fp(async (app: FastifyInstance, opts: { audit: AuditRepository; clock: Clock }) => {
  const inventory: { method: string; url: string; rateLimited: boolean }[] = [];
  app.decorate('routeInventory', inventory as FastifyInstance['routeInventory']);
  app.addHook('onRoute', (route) => {
    inventory.push({ method: [route.method].flat().join(','), url: route.url, rateLimited: Boolean(route.config && 'rateLimit' in route.config && route.config.rateLimit) });
  });

  // The answer's object before it is serialised (and perhaps compressed): the created id of a
  // 201, the signed-in user of a login.
  app.addHook('preSerialization', async (req, reply, payload) => {
    if (payload && typeof payload === 'object' && !Array.isArray(payload) && (reply.statusCode === 201 || req.routeOptions.url === '/api/auth/login')) {
      req.auditAnswer = payload as Record<string, unknown>;
    }
    return payload;
  });

  // Written before the answer leaves (onSend, not onResponse): whoever got the answer can
  // already read the entry, and an entry is never lost to a race with the next request.
  app.addHook('onSend', async (req, reply, payload) => {
    const answer = req.auditAnswer ?? null;
    const url = req.routeOptions.url ?? '';
    const status = reply.statusCode;
    const result = status >= 500 ? 'failed' : status >= 400 ? 'refused' : 'ok';
    let entry: Parameters<AuditRepository['record']>[0] | null = null;
    if (isAuditable(req)) {
      const changes = req.method === 'PATCH' || req.method === 'PUT' ? requestSummary(req.body) : undefined;
      const created = status === 201 ? answer?.id : undefined;
      const createdId = typeof created === 'string' || typeof created === 'number' ? String(created) : undefined;
      entry = {
        actor: { id: req.user!.id, email: req.user!.email },
        action: `${req.method} ${url}`,
        target: auditTarget(url, (req.params ?? {}) as Record<string, unknown>, createdId),
        result,
        detail: { status, ...(changes ? { changes } : {}) },
        at: opts.clock.now(),
      };
    } else if (req.method === 'POST' && url === '/api/auth/logout' && req.user?.role === 'admin') {
      entry = { actor: { id: req.user.id, email: req.user.email }, action: 'POST /api/auth/logout', target: `user:${req.user.id}`, result, detail: { status }, at: opts.clock.now() };
    } else if (req.method === 'POST' && url === '/api/auth/login' && status < 300) {
      // The session is set on the answer, not the request: the signed-in user is in the body.
      const who = answer;
      if (who && who.role === 'admin' && typeof who.id === 'string' && typeof who.email === 'string') {
        entry = { actor: { id: who.id, email: who.email }, action: 'POST /api/auth/login', target: `user:${who.id}`, result, detail: { status }, at: opts.clock.now() };
      }
    }
    if (entry) {
      const written = entry;
      // A failed write is logged, never turned into an error of the action itself.
      await opts.audit.record(written).catch((err: unknown) => req.log.error({ err, action: written.action }, 'audit log write failed'));
    }
    return payload;
  });
});
