import cookie from '@fastify/cookie';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { registerErrorHandler } from './error-handler.ts';
import { authPlugin } from './auth.ts';

let app: FastifyInstance | undefined;
afterEach(async () => app?.close());

/** A bare server with the auth plugin and no sessions at all: every caller is signed out. */
async function bareApp() {
  app = Fastify({ logger: false });
  registerErrorHandler(app);
  await app.register(cookie, { secret: 'test-secret-test-secret-test-secret-0123' });
  await app.register(authPlugin, { auth: { resolveSession: async () => undefined } });
  return app;
}

describe('authPlugin access rules', () => {
  it('fails the boot when an /api route declares no access, naming the method and url', async () => {
    const a = await bareApp();
    // As buildApp registers feature routes: in a plugin, then ready.
    const boot = async () => {
      await a.register(async (scope) => {
        scope.post('/api/things', async () => ({ ok: true }));
      });
      await a.ready();
    };
    await expect(boot()).rejects.toThrow(/POST \/api\/things declares no access rule/);
  });

  it('fails the boot when /ws declares no access', async () => {
    const a = await bareApp();
    expect(() => a.get('/ws', async () => 'hi')).toThrow(/GET \/ws declares no access rule/);
  });

  it('lets a route outside /api go undeclared, as public', async () => {
    const a = await bareApp();
    a.get('/robots.txt', async () => 'ok');
    await a.ready();
    expect(a.accessRules).toContainEqual({ method: 'GET', url: '/robots.txt', access: 'public' });
    expect((await a.inject({ method: 'GET', url: '/robots.txt' })).statusCode).toBe(200);
  });

  it('refuses signed-out callers of a user route before its body is parsed and before its own onRequest hooks (a rate limit)', async () => {
    const a = await bareApp();
    const seen: string[] = [];
    a.post(
      '/api/things',
      {
        config: { access: 'user' },
        onRequest: [
          async () => {
            seen.push('own hook');
          },
        ],
        preParsing: async (_req, _reply, payload) => {
          seen.push('parsing');
          return payload;
        },
      },
      async () => ({ ok: true }),
    );
    await a.ready();
    expect(a.accessRules).toContainEqual({ method: 'POST', url: '/api/things', access: 'user' });
    const res = await a.inject({ method: 'POST', url: '/api/things', headers: { 'content-type': 'application/json' }, payload: '{"not json' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ code: 'unauthorized', message: 'Unauthorized' });
    expect(seen).toEqual([]);
  });

  it('applies the rule of a GET route to the HEAD route Fastify adds for it', async () => {
    const a = await bareApp();
    a.get('/api/secret', { config: { access: 'admin' } }, async () => ({ ok: true }));
    await a.ready();
    expect(a.accessRules.filter((r) => r.url === '/api/secret').map((r) => `${r.method} ${r.access}`)).toEqual(['GET admin', 'HEAD admin']);
    expect((await a.inject({ method: 'HEAD', url: '/api/secret' })).statusCode).toBe(401);
  });
});
