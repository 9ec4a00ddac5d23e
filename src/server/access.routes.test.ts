import type { HTTPMethods } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, signupUser, TEST_ORIGIN, type TestApp } from './test/build-test-app.ts';

let t: TestApp;
let admin: string;
let member: string;

beforeAll(async () => {
  t = await buildTestApp();
  admin = (await signupUser(t.app)).cookie; // the first account is admin
  member = (await signupUser(t.app)).cookie;
});
afterAll(async () => t?.close());

/** A well-formed id for every path parameter, so no route can answer 400 or 404 on its path first. */
const SOME_ID = '4b1e8f0a-2c3d-4e5f-8a9b-0c1d2e3f4a5b';
const fill = (url: string) => url.replace(/:[A-Za-z]\w*/g, SOME_ID).replace(/\*/g, 'x');
const WITH_BODY = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** A request with a JSON content type and the given raw body (methods that take one). */
const call = (method: string, url: string, body: string, cookie?: string) =>
  t.app.inject({
    method: method as HTTPMethods,
    url: fill(url),
    headers: { origin: TEST_ORIGIN, 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
    ...(WITH_BODY.has(method) ? { payload: body } : {}),
  });

const rules = () => t.app.accessRules;
/** Routes a caller needs at least `access` for: every non-public route needs a signed-in user. */
const guarded = (access: 'user' | 'vendor' | 'admin') => rules().filter((r) => r.access === access || (access === 'user' && r.access !== 'public'));

describe('every route declares who may call it', () => {
  it('lists every route the router holds, and each /api route and /ws with a declared rule', () => {
    // Counted from the router itself: no route escaped the onRoute hook by being registered before it.
    const printed = t.app.printRoutes({ commonPrefix: false });
    const routed = [...printed.matchAll(/\(([A-Z, ]+)\)/g)].flatMap((m) => m[1]!.split(', '));
    expect(rules().length).toBe(routed.length);
    const api = rules().filter((r) => r.url.startsWith('/api') || r.url === '/ws');
    expect(api.length).toBeGreaterThan(40);
    for (const r of api) expect(['public', 'user', 'vendor', 'admin'], `${r.method} ${r.url}`).toContain(r.access);
    for (const r of rules().filter((x) => !x.url.startsWith('/api') && x.url !== '/ws')) expect(r.access, `${r.method} ${r.url}`).toBe('public');
  });

  it('keeps the list read-only', () => {
    expect(Object.isFrozen(rules()[0])).toBe(true);
  });

  it('declares the rules the product needs on a sample of routes', () => {
    const accessOf = (method: string, url: string) => rules().find((r) => r.method === method && r.url === url)?.access;
    expect(accessOf('GET', '/api/events')).toBe('public');
    expect(accessOf('GET', '/api/health')).toBe('public');
    expect(accessOf('GET', '/api/config')).toBe('public');
    expect(accessOf('POST', '/api/auth/signup')).toBe('public');
    expect(accessOf('GET', '/api/auth/user')).toBe('user');
    expect(accessOf('GET', '/ws')).toBe('user');
    expect(accessOf('POST', '/api/events/import-url')).toBe('user');
    expect(accessOf('GET', '/api/admin/qr/:kind/:id')).toBe('admin');
    expect(accessOf('DELETE', '/api/admin/sources/:id')).toBe('admin');
  });
});

describe('access is decided before the body is read', () => {
  it('answers 401 to a signed-out call of every user and admin route, with an invalid JSON body', async () => {
    const targets = guarded('user');
    expect(targets.length).toBeGreaterThan(30);
    for (const r of targets) {
      const res = await call(r.method, r.url, '{"not json');
      expect(res.statusCode, `${r.method} ${r.url}: ${res.body}`).toBe(401);
      if (r.method !== 'HEAD') expect(res.json(), `${r.method} ${r.url}`).toEqual({ code: 'unauthorized', message: 'Unauthorized' });
    }
  });

  it('answers 401 to a signed-out call of every user and admin route that takes a body, with an empty body', async () => {
    for (const r of guarded('user').filter((x) => WITH_BODY.has(x.method))) {
      const res = await call(r.method, r.url, '');
      expect(res.statusCode, `${r.method} ${r.url}: ${res.body}`).toBe(401);
    }
  });

  it('answers 403 to a member calling any admin route, with an invalid JSON body', async () => {
    const targets = guarded('admin');
    expect(targets.length).toBeGreaterThan(10);
    for (const r of targets) {
      const res = await call(r.method, r.url, '{"not json', member);
      expect(res.statusCode, `${r.method} ${r.url}: ${res.body}`).toBe(403);
      if (r.method !== 'HEAD') expect(res.json(), `${r.method} ${r.url}`).toEqual({ code: 'forbidden', message: 'Admins only' });
    }
  });

  it('answers 403 to a member calling any vendor route, with an invalid JSON body', async () => {
    for (const r of guarded('vendor')) {
      const res = await call(r.method, r.url, '{"not json', member);
      expect(res.statusCode, `${r.method} ${r.url}: ${res.body}`).toBe(403);
      if (r.method !== 'HEAD') expect(res.json(), `${r.method} ${r.url}`).toEqual({ code: 'forbidden', message: 'Vendors and admins only' });
    }
  });
});

describe.each([
  ['/api/admin/sources', 'admin'],
  ['/api/admin/classify', 'admin'],
  ['/api/gaming/qr-scan', 'user'],
  ['/api/gaming/award-points', 'user'],
  ['/api/user/activities', 'user'],
] as const)('POST %s (%s)', (url, access) => {
  it('returns 401 signed out, with an empty, an invalid or a wrong body', async () => {
    for (const body of ['', '{"not json', '{}']) {
      const res = await call('POST', url, body);
      expect(res.statusCode, `body ${JSON.stringify(body)}: ${res.body}`).toBe(401);
      expect(res.json().code).toBe('unauthorized');
    }
  });

  if (access === 'admin') {
    it('returns 403 to a member, with an empty, an invalid or a wrong body', async () => {
      for (const body of ['', '{"not json', '{}']) {
        const res = await call('POST', url, body, member);
        expect(res.statusCode, `body ${JSON.stringify(body)}: ${res.body}`).toBe(403);
        expect(res.json()).toEqual({ code: 'forbidden', message: 'Admins only' });
      }
    });
  }

  it('returns 400 for a wrong body only once the caller may call it', async () => {
    const res = await call('POST', url, '{}', access === 'admin' ? admin : member);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().code).toBe('invalid');
  });
});

describe('rate limits count only callers a route lets in', () => {
  it('answers 401/403 past any limit to callers who may not call a rate-limited route, and never spends the budget of those who may', async () => {
    const limited = new Set(t.app.routeInventory.filter((r) => r.rateLimited).map((r) => `${r.method} ${r.url}`));
    const targets = rules().filter((r) => r.access !== 'public' && r.access !== 'vendor' && limited.has(`${r.method} ${r.url}`));
    expect(targets.map((r) => r.url)).toEqual(expect.arrayContaining(['/api/events/import-url', '/api/admin/sources/:id/run']));
    // More calls than the most generous limit (120 a minute), from the one address every inject comes from.
    const FLOOD = 121;
    for (const r of targets) {
      const outsiders = r.access === 'admin' ? [{ cookie: undefined, status: 401 }, { cookie: member, status: 403 }] : [{ cookie: undefined, status: 401 }];
      for (const { cookie, status } of outsiders) {
        for (let i = 0; i < FLOOD; i++) {
          const res = await call(r.method, r.url, '{"not json', cookie);
          if (res.statusCode !== status) expect(res.statusCode, `${r.method} ${r.url}, call ${i + 1}: ${res.body}`).toBe(status);
        }
      }
      // Whoever may call it is still heard: the bad body is what they are told of.
      const res = await call(r.method, r.url, '{"not json', r.access === 'admin' ? admin : member);
      expect(res.statusCode, `${r.method} ${r.url}: ${res.body}`).toBe(400);
    }
  });

  it('gives each signed-in caller their own budget, whoever shares their address', async () => {
    const other = (await signupUser(t.app)).cookie;
    const importUrl = (cookie: string) => call('POST', '/api/events/import-url', '{}', cookie);
    const codes: number[] = [];
    for (let i = 0; i < 11; i++) codes.push((await importUrl(other)).statusCode);
    expect(codes.slice(0, 10).every((c) => c === 400)).toBe(true);
    expect(codes[10]).toBe(429);
    expect((await importUrl(member)).statusCode).toBe(400);
  });
});
