import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_IDLE_MS } from './auth.service.ts';
import { buildTestApp, sessionCookieFrom, signupUser, TEST_ORIGIN, type TestApp } from '../../test/build-test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ env: { ADMIN_EMAILS: 'boss@example.org, Chief@Example.org' } });
});
afterAll(async () => t.close());

const post = (url: string, payload?: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url, headers: { origin: TEST_ORIGIN, ...headers }, ...(payload === undefined ? {} : { payload: payload as object }) });
const me = (cookie?: string) => t.app.inject({ method: 'GET', url: '/api/auth/user', headers: cookie ? { cookie } : {} });

describe('accounts', () => {
  it('makes the first account an admin, later ones users, and ADMIN_EMAILS admins', async () => {
    const first = await signupUser(t.app);
    expect(first.user.role).toBe('admin');
    const second = await signupUser(t.app);
    expect(second.user.role).toBe('user');
    const listed = await signupUser(t.app, { email: 'chief@example.org' });
    expect(listed.user.role).toBe('admin');
  });

  it('signs up, answers the auth lookup in the spec shape, and never returns the password hash', async () => {
    const res = await post('/api/auth/signup', { email: 'ada@example.org', password: 'a long password', firstName: 'Ada', lastName: 'Lovelace' });
    expect(res.statusCode).toBe(201);
    const cookie = res.cookies.find((c) => c.name === 'tb_session')!;
    expect(cookie.httpOnly).toBe(true);
    expect(cookie.sameSite).toBe('Lax');
    const user = await me(sessionCookieFrom(res));
    expect(user.statusCode).toBe(200);
    expect(user.json()).toEqual({
      id: expect.any(String),
      email: 'ada@example.org',
      firstName: 'Ada',
      lastName: 'Lovelace',
      profileImageUrl: null,
      points: 0,
      role: 'user',
    });
    expect(user.body).not.toContain('argon2');
  });

  it('answers 401 to the auth lookup when signed out', async () => {
    const res = await me();
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: 'unauthorized' });
  });

  it('refuses a duplicate sign-up with 409, whatever the case of the email', async () => {
    await signupUser(t.app, { email: 'dup@example.org' });
    const res = await post('/api/auth/signup', { email: 'DUP@example.org', password: 'another password', firstName: 'D', lastName: 'Up' });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/already exists/);
  });

  it('rejects bad sign-up input with 400 naming each field, and writes nothing', async () => {
    const res = await post('/api/auth/signup', { email: 'not-an-email', password: 'short', firstName: '', lastName: 3 });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    const paths = body.issues.map((i: { path: string }) => i.path);
    expect(paths).toEqual(expect.arrayContaining(['body.email', 'body.password', 'body.firstName', 'body.lastName']));
    expect(body.message).toContain('body.email');
    const login = await post('/api/auth/login', { email: 'not-an-email', password: 'short' });
    expect(login.statusCode).toBe(401);
  });

  it('refuses passwords over 128 characters', async () => {
    const res = await post('/api/auth/signup', { email: 'long@example.org', password: 'x'.repeat(129), firstName: 'L', lastName: 'P' });
    expect(res.statusCode).toBe(400);
    expect(res.json().issues[0].path).toBe('body.password');
  });

  it('signs in with the right password and gives a new session id each time', async () => {
    const { user, password, cookie: firstCookie } = await signupUser(t.app);
    const a = await post('/api/auth/login', { email: user.email, password });
    expect(a.statusCode).toBe(200);
    const b = await post('/api/auth/login', { email: user.email.toUpperCase(), password });
    expect(b.statusCode).toBe(200);
    const ids = new Set([firstCookie, sessionCookieFrom(a), sessionCookieFrom(b)]);
    expect(ids.size).toBe(3);
  });

  it('says only "Invalid email or password" for a wrong password or an unknown email', async () => {
    const { user } = await signupUser(t.app);
    const wrong = await post('/api/auth/login', { email: user.email, password: 'wrong password' });
    const unknown = await post('/api/auth/login', { email: 'nobody@example.org', password: 'wrong password' });
    for (const res of [wrong, unknown]) {
      expect(res.statusCode).toBe(401);
      expect(res.json().message).toBe('Invalid email or password');
    }
  });

  it('promotes an ADMIN_EMAILS account on sign-in', async () => {
    const res = await post('/api/auth/signup', { email: 'boss@example.org', password: 'boss password', firstName: 'B', lastName: 'Oss' });
    expect(res.json().role).toBe('admin');
  });

  it('ends the session on the server at sign-out, so the old cookie no longer works', async () => {
    const { cookie } = await signupUser(t.app);
    expect((await me(cookie)).statusCode).toBe(200);
    const out = await post('/api/auth/logout', undefined, { cookie });
    expect(out.statusCode).toBe(200);
    expect((await me(cookie)).statusCode).toBe(401);
  });

  it('GET /api/logout ends the session and returns to the landing page', async () => {
    const { cookie } = await signupUser(t.app);
    const res = await t.app.inject({ method: 'GET', url: '/api/logout', headers: { cookie } });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/');
    expect((await me(cookie)).statusCode).toBe(401);
  });

  it('expires a session after the idle limit', async () => {
    const { cookie } = await signupUser(t.app);
    t.clock.advance(SESSION_IDLE_MS + 1000);
    expect((await me(cookie)).statusCode).toBe(401);
  });

  it('ignores a forged session cookie', async () => {
    expect((await me('tb_session=forged.value')).statusCode).toBe(401);
  });

  it('sends /api/login to the built-in sign-in page, keeping only a same-site returnTo', async () => {
    const ok = await t.app.inject({ method: 'GET', url: '/api/login?returnTo=/map' });
    expect(ok.statusCode).toBe(302);
    expect(ok.headers.location).toBe('/login?returnTo=%2Fmap');
    const evil = await t.app.inject({ method: 'GET', url: '/api/login?returnTo=//evil.example/x' });
    expect(evil.headers.location).toBe('/login?returnTo=%2F');
  });
});

describe('request safety', () => {
  it('refuses a cross-site POST with 403', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/login', headers: { origin: 'https://evil.example' }, payload: { email: 'a@b.c', password: 'x' } });
    expect(res.statusCode).toBe(403);
  });

  it('refuses a cookie-carrying POST with no Origin', async () => {
    const { cookie } = await signupUser(t.app);
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: { cookie } });
    expect(res.statusCode).toBe(403);
  });

  it('refuses a form-encoded or text body (a cross-site form) with 415', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { origin: TEST_ORIGIN, 'content-type': 'text/plain' },
      payload: '{"email":"a@b.c","password":"x"}',
    });
    expect(res.statusCode).toBe(415);
    const form = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { origin: TEST_ORIGIN, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'email=a@b.c&password=x',
    });
    expect(form.statusCode).toBe(415);
  });

  it('answers malformed JSON with 400 and an oversized body with 413', async () => {
    const bad = await t.app.inject({ method: 'POST', url: '/api/auth/login', headers: { origin: TEST_ORIGIN, 'content-type': 'application/json' }, payload: '{"email":' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/not valid JSON/);
    // An empty JSON request is a request without a body: refused in words naming the body where
    // one is needed, answered where none is (a client that sets the header on every call).
    const empty = await t.app.inject({ method: 'POST', url: '/api/auth/login', headers: { origin: TEST_ORIGIN, 'content-type': 'application/json' }, payload: '' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe('body: is required: send a JSON object');
    const out = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: { origin: TEST_ORIGIN, 'content-type': 'application/json' }, payload: '' });
    expect(out.statusCode).toBe(200);
    const polluted = await t.app.inject({ method: 'POST', url: '/api/auth/login', headers: { origin: TEST_ORIGIN, 'content-type': 'application/json' }, payload: '{"__proto__":{"x":1},"email":"a@b.c","password":"x"}' });
    expect(polluted.statusCode).toBe(400);
    const big = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { origin: TEST_ORIGIN, 'content-type': 'application/json' },
      payload: JSON.stringify({ email: 'a@b.c', password: 'x'.repeat(1024 * 1024 + 10) }),
    });
    expect(big.statusCode).toBe(413);
    expect(big.body).not.toMatch(/at .*\.ts/);
  });
});

describe('rate limits', () => {
  it('limits repeated failed sign-ins to one account with 429 and Retry-After', async () => {
    const { user } = await signupUser(t.app);
    let last = await post('/api/auth/login', { email: user.email, password: 'wrong password' });
    for (let i = 0; i < 10; i++) last = await post('/api/auth/login', { email: user.email, password: 'wrong password' });
    expect(last.statusCode).toBe(429);
    expect(Number(last.headers['retry-after'])).toBeGreaterThan(0);
  });
});
