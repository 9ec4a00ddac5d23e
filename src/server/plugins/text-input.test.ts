import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, signupUser, TEST_ORIGIN, type TestApp } from '../test/build-test-app.ts';
import { nulPath } from './text-input.ts';

describe('nulPath', () => {
  it('names the first string holding NUL, in keys and values, through arrays and objects', () => {
    expect(nulPath({ a: 'fine', b: [{ c: 'x' }, { d: 'y\u0000' }] }, 'body')).toBe('body.b.1.d');
    expect(nulPath({ 'k\u0000': 1 }, 'body')).toBe('body.k\u0000');
    expect(nulPath({ a: 'fine', n: 3, t: true, z: null }, 'body')).toBeNull();
    expect(nulPath(undefined, 'body')).toBeNull();
  });
});

describe('a request carrying NUL (which PostgreSQL text cannot hold)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('gets 400 naming the field, in a body or a query, instead of failing in the database', async () => {
    const signup = await t.app.inject({ method: 'POST', url: '/api/auth/signup', headers: { origin: TEST_ORIGIN }, payload: { email: 'nul@example.org', password: 'correct horse battery', firstName: 'A\u0000B', lastName: 'C' } });
    expect(signup.statusCode).toBe(400);
    expect(signup.json()).toEqual({ code: 'invalid', message: 'body.firstName: must not contain the NUL character' });
    const search = await t.app.inject({ method: 'GET', url: '/api/events?search=jazz%00' });
    expect(search.statusCode).toBe(400);
    expect(search.json().message).toBe('query.search: must not contain the NUL character');
    // Nothing was written: the same account can sign up with clean text.
    const clean = await t.app.inject({ method: 'POST', url: '/api/auth/signup', headers: { origin: TEST_ORIGIN }, payload: { email: 'nul@example.org', password: 'correct horse battery', firstName: 'AB', lastName: 'C' } });
    expect(clean.statusCode).toBe(201);
  });

  it('is asked only after who is calling: 401 signed out, 403 for a member', async () => {
    const body = { name: 'N\u0000', connector: 'ical', url: 'https://example.org/a.ics', sourceType: 'ical' };
    expect((await t.app.inject({ method: 'POST', url: '/api/admin/sources', headers: { origin: TEST_ORIGIN }, payload: body })).statusCode).toBe(401);
    // The very first account is the admin: with one made before it, this one is a member.
    await signupUser(t.app);
    const member = (await signupUser(t.app)).cookie;
    expect((await t.app.inject({ method: 'POST', url: '/api/admin/sources', headers: { origin: TEST_ORIGIN, cookie: member }, payload: body })).statusCode).toBe(403);
  });
});
