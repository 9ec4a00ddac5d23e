import type { FastifyInstance, FastifyRequest } from 'fastify';
import { forbidden } from '../errors.ts';
import { SESSION_COOKIE } from './auth.ts';

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

function stripDefaultPort(host: string, protocol: string) {
  if (protocol === 'http' && host.endsWith(':80')) return host.slice(0, -3);
  if (protocol === 'https' && host.endsWith(':443')) return host.slice(0, -4);
  return host;
}

/** Whether an Origin header names this server (PUBLIC_URL when set, else the Host header). */
export function isSameOrigin(req: FastifyRequest, origin: string, publicUrl: string | undefined): boolean {
  let o: URL;
  try {
    o = new URL(origin);
  } catch {
    return false;
  }
  if (publicUrl) return o.origin === new URL(publicUrl).origin;
  const proto = o.protocol.replace(':', '');
  return stripDefaultPort(o.host, proto) === stripDefaultPort(req.host, proto);
}

/**
 * CSRF defence: state-changing requests from browsers must carry a same-origin Origin.
 * A request with no Origin is accepted only when it carries no session cookie (non-browser clients).
 * Bodies must be JSON: the text/plain parser is removed so a cross-site form cannot post.
 */
export function registerSameOrigin(app: FastifyInstance, publicUrl: string | undefined) {
  app.removeContentTypeParser('text/plain');
  // A JSON request with nothing in it is a request without a body (clients that set the header on
  // every call): a route that takes none answers it, one that needs a body names it in its 400.
  const json = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    if (body === '') done(null, undefined);
    else json(req, String(body), done);
  });
  app.addHook('onRequest', async (req) => {
    if (!UNSAFE.has(req.method) || !req.url.startsWith('/api/')) return;
    const origin = req.headers.origin;
    if (origin) {
      if (!isSameOrigin(req, origin, publicUrl)) throw forbidden('Cross-site request refused');
      return;
    }
    if (req.headers['sec-fetch-site'] === 'cross-site') throw forbidden('Cross-site request refused');
    if (req.cookies[SESSION_COOKIE]) throw forbidden('Request refused: missing Origin header');
  });
}
