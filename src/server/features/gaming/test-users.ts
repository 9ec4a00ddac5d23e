import type { FastifyInstance } from 'fastify';
import { sessionCookieFrom, TEST_ORIGIN } from '../../test/build-test-app.ts';

let seq = 0;

/**
 * Signs up a fresh user from an address of its own, so files that need many users stay under
 * the sign-up rate limit (20 a minute per address). Test helper only.
 */
export async function newUser(app: FastifyInstance, fields: Partial<{ firstName: string; lastName: string }> = {}) {
  seq += 1;
  const body = { email: `gamer${seq}-${Date.now()}@example.org`, password: 'correct horse battery', firstName: 'Test', lastName: `Gamer${seq}`, ...fields };
  const res = await app.inject({
    method: 'POST',
    url: '/api/auth/signup',
    headers: { origin: TEST_ORIGIN },
    payload: body,
    remoteAddress: `10.77.${Math.floor(seq / 200)}.${(seq % 200) + 1}`,
  });
  if (res.statusCode !== 201) throw new Error(`signup failed ${res.statusCode}: ${res.body}`);
  return { cookie: sessionCookieFrom(res), user: res.json() as { id: string; email: string; role: string } };
}
