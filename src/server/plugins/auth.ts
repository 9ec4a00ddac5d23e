import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { forbidden, unauthorized } from '../errors.ts';
import type { AuthService } from '../features/auth/auth.service.ts';
import type { UserRow } from '../features/users/users.table.ts';

export const SESSION_COOKIE = 'tb_session';

declare module 'fastify' {
  interface FastifyRequest {
    user: UserRow | null;
    sessionIdHash: string | null;
  }
}

/** Reads the session cookie on every request and puts the user (or null) on the request. */
export const authPlugin = fp(async (app: FastifyInstance, opts: { auth: AuthService }) => {
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
});

/** The signed-in user, or a 401. */
export function requireUser(req: FastifyRequest): UserRow {
  if (!req.user) throw unauthorized();
  return req.user;
}

/** The one role check every admin route uses: 401 signed out, 403 for non-admins. */
export function requireAdmin(req: FastifyRequest): UserRow {
  const user = requireUser(req);
  if (user.role !== 'admin') throw forbidden('Admins only');
  return user;
}

/** Route-level hooks for the same checks. */
export const userOnly = async (req: FastifyRequest, _reply: FastifyReply) => {
  requireUser(req);
};
export const adminOnly = async (req: FastifyRequest, _reply: FastifyReply) => {
  requireAdmin(req);
};
