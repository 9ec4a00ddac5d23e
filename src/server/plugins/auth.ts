import type { FastifyInstance, FastifyRequest, onRequestHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { forbidden, unauthorized } from '../errors.ts';
import type { AuthService } from '../features/auth/auth.service.ts';
import type { UserRow } from '../features/users/users.table.ts';

export const SESSION_COOKIE = 'tb_session';

/** Who may call a route: anyone, any signed-in user, vendors (and admins), or admins only. */
export type Access = 'public' | 'user' | 'vendor' | 'admin';
const ACCESS: readonly Access[] = ['public', 'user', 'vendor', 'admin'];

/**
 * A route's second, resource-level check (owner or admin), declared beside `access` and run
 * right after it, before the body is read: it sees the user and the URL params, and throws
 * `forbidden()` / `notFound()` itself.
 */
export type AccessGuard = (req: FastifyRequest) => Promise<void>;

/** One registered route and the access it declared (routes outside /api default to public). */
export interface AccessRule {
  readonly method: string;
  readonly url: string;
  readonly access: Access;
}

declare module 'fastify' {
  interface FastifyRequest {
    user: UserRow | null;
    sessionIdHash: string | null;
  }
  interface FastifyContextConfig {
    /** Required on every /api route and /ws: checked before the body is read. */
    access?: Access;
    /** Optional resource check after `access` (e.g. the vendor's owner or an admin). */
    guard?: AccessGuard;
  }
  interface FastifyInstance {
    /** Every route registered after the auth plugin, with its access; for tests that walk them. */
    accessRules: readonly AccessRule[];
  }
}

/** Routes that must say who may call them; the rest (static files) are public. */
const mustDeclare = (url: string) => url.startsWith('/api') || url === '/ws';

/**
 * Route-level onRequest hooks: they run after the global hook below has put the user on the
 * request and before the body is parsed, so a caller without the right gets 401/403, never a 400.
 */
const checks: Record<Exclude<Access, 'public'>, onRequestHookHandler> = {
  user: async (req) => {
    if (!req.user) throw unauthorized();
  },
  vendor: async (req) => {
    if (!req.user) throw unauthorized();
    if (req.user.role !== 'vendor' && req.user.role !== 'admin') throw forbidden('Vendors and admins only');
  },
  admin: async (req) => {
    if (!req.user) throw unauthorized();
    if (req.user.role !== 'admin') throw forbidden('Admins only');
  },
};

/**
 * Reads the session cookie on every request and puts the user (or null) on the request, and
 * enforces each route's declared `config.access`; a /api route without one fails the boot.
 */
export const authPlugin = fp(async (app: FastifyInstance, opts: { auth: Pick<AuthService, 'resolveSession'> }) => {
  app.decorateRequest('user', null);
  app.decorateRequest('sessionIdHash', null);
  app.addHook('onRequest', async (req) => {
    const raw = req.cookies[SESSION_COOKIE];
    if (!raw) return;
    const unsigned = req.unsignCookie(raw);
    if (!unsigned.valid || !unsigned.value) return;
    const session = await opts.auth.resolveSession(unsigned.value);
    if (!session) return;
    req.user = session.user;
    req.sessionIdHash = session.idHash;
  });

  const rules: AccessRule[] = [];
  app.decorate('accessRules', rules as readonly AccessRule[]);
  app.addHook('onRoute', (route) => {
    const method = [route.method].flat().join(',');
    const declared = route.config?.access;
    if (declared === undefined && mustDeclare(route.url)) {
      throw new Error(`${method} ${route.url} declares no access rule: add config: { access: 'public' | 'user' | 'vendor' | 'admin' }`);
    }
    if (declared !== undefined && !ACCESS.includes(declared)) throw new Error(`${method} ${route.url} declares an unknown access rule: ${String(declared)}`);
    const access = declared ?? 'public';
    rules.push(Object.freeze({ method, url: route.url, access }));
    const guard = route.config?.guard;
    if (access === 'public' && !guard) return;
    // First, before the route's own onRequest hooks (its rate limit): who may not call it is
    // answered 401/403 and never counts against a limit that people who may share (one address).
    const own = route.onRequest === undefined ? [] : [route.onRequest].flat();
    const guardHook: onRequestHookHandler | null = guard ? async (req) => guard(req) : null;
    route.onRequest = [...(access === 'public' ? [] : [checks[access]]), ...(guardHook ? [guardHook] : []), ...own];
  });
});

/**
 * The key a route's rate limit counts by: the signed-in user (people behind one address, a proxy
 * or a household, each have their own budget), else the address.
 */
export const perUser = (req: FastifyRequest): string => req.user?.id ?? req.ip;

/**
 * The user a 'user', 'vendor' or 'admin' route's access rule already let in. Signed-out callers never
 * reach such a handler, so a null user here is a route declared with the wrong access: a 500.
 */
export function signedIn(req: FastifyRequest): UserRow {
  if (!req.user) throw new Error(`${req.method} ${req.routeOptions.url ?? req.url} reads the signed-in user but is not declared access 'user' or 'admin'`);
  return req.user;
}
