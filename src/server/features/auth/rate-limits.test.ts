import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, signupUser, TEST_ORIGIN, type TestApp } from '../../test/build-test-app.ts';
import { createRateLimitCounter } from './rate-limiter.ts';

// Rate limits count in the database: the workers of `npm start` (one per core) and instances on
// one PostgreSQL share them, so a limit is not multiplied by the number of processes.

let a: TestApp;
let b: TestApp;
beforeAll(async () => {
  a = await buildTestApp();
  // A second instance on the same database, as a second cluster worker is.
  b = await buildTestApp({ database: a.database });
});
afterAll(async () => {
  await b.app.close();
  await a.close();
});

const login = (t: TestApp, email: string) =>
  t.app.inject({ method: 'POST', url: '/api/auth/login', headers: { origin: TEST_ORIGIN }, payload: { email, password: 'wrong password' } });

describe('limits shared by every instance on one database', () => {
  it("counts one account's failed sign-ins on every instance together", async () => {
    const { user } = await signupUser(a.app);
    const codes: number[] = [];
    // Ten attempts are allowed per account in 15 minutes, wherever they land; signing up was one.
    for (let i = 0; i < 10; i++) codes.push((await login(i % 2 ? b : a, user.email)).statusCode);
    expect(codes).toEqual([...Array<number>(9).fill(401), 429]);
    const next = await login(a, user.email);
    expect(next.statusCode).toBe(429);
    expect(Number(next.headers['retry-after'])).toBeGreaterThan(0);
  });

  it("counts a route's limit per caller on every instance together", async () => {
    // Sign-in allows 20 requests a minute per address; a different account each time, so the
    // account limit stays out of it. The earlier test's 11 attempts came from the same address.
    const codes: number[] = [];
    for (let i = 0; i < 12; i++) codes.push((await login(i % 2 ? a : b, `nobody${i}@example.org`)).statusCode);
    expect(codes).toEqual([...Array<number>(9).fill(401), 429, 429, 429]);
  });
});

describe('AUTH_RATE_LIMIT', () => {
  it('sets how many sign-ups and sign-ins one address may make a minute', async () => {
    const c = await buildTestApp({ env: { AUTH_RATE_LIMIT: '3' } });
    try {
      const signup = (i: number) =>
        c.app.inject({ method: 'POST', url: '/api/auth/signup', headers: { origin: TEST_ORIGIN }, payload: { email: `limit${i}@example.org`, password: 'a long enough password', firstName: 'L', lastName: 'M' } });
      const codes: number[] = [];
      for (let i = 0; i < 4; i++) codes.push((await signup(i)).statusCode);
      expect(codes).toEqual([201, 201, 201, 429]);
      // Signing in counts apart, with the same limit.
      const logins: number[] = [];
      for (let i = 0; i < 4; i++) logins.push((await login(c, `nobody${i}@example.org`)).statusCode);
      expect(logins).toEqual([401, 401, 401, 429]);
    } finally {
      await c.close();
    }
  });
});

describe('createRateLimitCounter', () => {
  it('counts hits in a window, starts again after it, and forgets a key on reset', async () => {
    const counter = createRateLimitCounter(a.database.db);
    const t0 = Date.parse('2026-11-25T10:00:00Z');
    expect((await counter.hit('k', 60_000, t0)).hits).toBe(1);
    expect(await counter.hit('k', 60_000, t0 + 1000)).toEqual({ hits: 2, resetAtMs: t0 + 60_000 });
    expect((await counter.peek('k', t0 + 2000)).hits).toBe(2);
    // The window has passed: a new one starts with this hit.
    expect(await counter.hit('k', 60_000, t0 + 60_000)).toEqual({ hits: 1, resetAtMs: t0 + 120_000 });
    expect((await counter.peek('k', t0 + 130_000)).hits).toBe(0);
    await counter.reset('k');
    expect((await counter.peek('k', t0 + 61_000)).hits).toBe(0);
    // Keys count apart.
    expect((await counter.hit('other', 60_000, t0)).hits).toBe(1);
  });
});
