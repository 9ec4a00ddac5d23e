import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Route = (req: IncomingMessage, res: ServerResponse, body: string) => unknown;

/**
 * A local HTTP server that replays recorded responses, so connectors run their real fetch code.
 * Routes are matched on the path (without the query); `hits` records every request.
 */
export async function startFeedServer(routes: Record<string, Route>) {
  const hits: { method: string; url: string; headers: IncomingMessage['headers']; body: string }[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      hits.push({ method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers, body });
      const path = (req.url ?? '/').split('?')[0] ?? '/';
      const route = routes[path];
      if (!route) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
        return;
      }
      Promise.resolve(route(req, res, body)).catch((err: unknown) => {
        res.writeHead(500).end(String(err));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    port,
    hits,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A route that answers a fixed body with a content type (and optional extra headers). */
export const serveText =
  (body: string | Buffer, contentType: string, headers: Record<string, string> = {}): Route =>
  (_req, res) => {
    res.writeHead(200, { 'content-type': contentType, ...headers }).end(body);
  };
