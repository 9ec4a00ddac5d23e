import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AuthUser, LoginBody, LoginQuery, OkResponse, SignupBody, safeReturnTo } from '../../../contract/auth.ts';
import { unauthorized } from '../../errors.ts';
import { SESSION_COOKIE, signedIn } from '../../plugins/auth.ts';
import type { UserRow } from '../users/users.table.ts';
import type { AuthService } from './auth.service.ts';
import { SESSION_ABSOLUTE_MS } from './auth.service.ts';
import type { OidcAdapter } from './oidc.ts';
import { toAuthUser } from './auth.mapper.ts';

export interface AuthRoutesDeps {
  auth: AuthService;
  oidc: OidcAdapter | null;
  secureCookies: boolean;
  /** Sign-ups and sign-ins allowed per minute from one address (AUTH_RATE_LIMIT). */
  perMinute: number;
}

const OIDC_COOKIE = 'tb_oidc';

/** Sign-up, sign-in, sign-out and the current user, for local accounts and OpenID Connect. */
export async function authRoutes(app: FastifyInstance, deps: AuthRoutesDeps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const authLimit = { rateLimit: { max: deps.perMinute, timeWindow: '1 minute' } };
  const cookieOpts = {
    path: '/',
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: deps.secureCookies,
    signed: true,
  };

  async function startSession(req: FastifyRequest, reply: FastifyReply, user: UserRow) {
    // A new session id on every sign-in; any previous session of this browser ends.
    if (req.sessionIdHash) await deps.auth.endSession(req.sessionIdHash);
    const id = await deps.auth.createSession(user.id, req.headers['user-agent']);
    reply.setCookie(SESSION_COOKIE, id, { ...cookieOpts, maxAge: SESSION_ABSOLUTE_MS / 1000 });
  }

  async function endSession(req: FastifyRequest, reply: FastifyReply) {
    if (req.sessionIdHash) await deps.auth.endSession(req.sessionIdHash);
    reply.clearCookie(SESSION_COOKIE, { path: '/' });
  }

  r.get('/api/login', { schema: { querystring: LoginQuery }, config: { access: 'public' } }, async (req, reply) => {
    const returnTo = safeReturnTo(req.query.returnTo);
    if (!deps.oidc) return reply.redirect(`/login?returnTo=${encodeURIComponent(returnTo)}`);
    const { url, state } = await deps.oidc.start(returnTo);
    reply.setCookie(OIDC_COOKIE, state, { ...cookieOpts, path: '/api/callback', maxAge: 600 });
    return reply.redirect(url);
  });

  r.get('/api/callback', { config: { access: 'public' } }, async (req, reply) => {
    if (!deps.oidc) return reply.redirect('/login');
    const raw = req.cookies[OIDC_COOKIE];
    const state = raw ? req.unsignCookie(raw) : null;
    reply.clearCookie(OIDC_COOKIE, { path: '/api/callback' });
    if (!state?.valid || !state.value) throw unauthorized('Sign-in expired or was started elsewhere; please try again');
    const currentUrl = new URL(req.url, deps.oidc.redirectUri);
    // A wrong state, a provider error (e.g. the user cancelled) or a refused code is a failed sign-in, not a 500.
    const { claims, returnTo } = await deps.oidc.finish(currentUrl, state.value).catch((err: unknown) => {
      req.log.warn({ err }, 'OpenID Connect callback failed');
      throw unauthorized('Sign-in with your provider failed; please try again');
    });
    const { user, created } = await deps.auth.upsertOidcUser(claims);
    await startSession(req, reply, user);
    // A new account takes the welcome step first (interests, places), then goes where it was going.
    const to = safeReturnTo(returnTo);
    return reply.redirect(created ? `/welcome?returnTo=${encodeURIComponent(to)}` : to);
  });

  r.get('/api/logout', { config: { access: 'public' } }, async (req, reply) => {
    await endSession(req, reply);
    return reply.redirect('/');
  });

  r.get('/api/auth/user', { schema: { response: { 200: AuthUser } }, config: { access: 'user' } }, async (req) => toAuthUser(signedIn(req)));

  r.post(
    '/api/auth/signup',
    { schema: { body: SignupBody, response: { 201: AuthUser } }, config: { access: 'public', ...authLimit } },
    async (req, reply) => {
      const user = await deps.auth.signup(req.body);
      await startSession(req, reply, user);
      return reply.status(201).send(toAuthUser(user));
    },
  );

  r.post(
    '/api/auth/login',
    { schema: { body: LoginBody, response: { 200: AuthUser } }, config: { access: 'public', ...authLimit } },
    async (req, reply) => {
      const user = await deps.auth.login(req.body.email, req.body.password);
      await startSession(req, reply, user);
      return toAuthUser(user);
    },
  );

  r.post('/api/auth/logout', { schema: { response: { 200: OkResponse } }, config: { access: 'public' } }, async (req, reply) => {
    await endSession(req, reply);
    return { ok: true as const };
  });
}
