import diagnostics from 'node:diagnostics_channel';
import type { Socket } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFeedServer, serveText } from '../../../test/feed-server.ts';
import { SourceError, SourceUnreachable } from '../ingestion.types.ts';
import { classifyAddress, createSafeFetch } from './safe-fetch.ts';

// Every client socket this process opens is watched: the SSRF tests must never connect anywhere
// but loopback (the guard refuses before connecting), and this proves it.
const connectedTo: string[] = [];
const created: Socket[] = [];
const onSocket = (message: unknown) => {
  const socket = (message as { socket: Socket }).socket;
  created.push(socket);
  socket.once('connect', () => connectedTo.push(socket.remoteAddress ?? '?'));
};

let server: Awaited<ReturnType<typeof startFeedServer>>;
const big = Buffer.alloc(20 * 1024 * 1024, 'a');

beforeAll(async () => {
  diagnostics.subscribe('net.client.socket', onSocket);
  server = await startFeedServer({
    '/ok': serveText('hello', 'text/plain'),
    '/to-private': (_req, res) => res.writeHead(302, { location: 'http://10.0.0.1/feed.ics' }).end(),
    '/to-metadata': (_req, res) => res.writeHead(301, { location: 'http://169.254.169.254/latest/meta-data/' }).end(),
    '/to-name': (_req, res) => res.writeHead(307, { location: 'http://internal.example/feed' }).end(),
    '/to-ok': (_req, res) => res.writeHead(302, { location: '/ok' }).end(),
    '/loop': (_req, res) => res.writeHead(302, { location: '/loop' }).end(),
    '/to-file': (_req, res) => res.writeHead(302, { location: 'file:///etc/passwd' }).end(),
    '/big': serveText(big, 'text/plain'),
    '/big-chunked': (_req, res) => {
      // No content-length: the cap must apply while streaming.
      res.writeHead(200, { 'content-type': 'text/plain' });
      let sent = 0;
      const chunk = Buffer.alloc(1024 * 1024, 'b');
      const pump = () => {
        while (sent < 20 && res.write(chunk)) sent++;
        if (sent >= 20) res.end();
        else res.once('drain', () => (sent++, pump()));
      };
      pump();
    },
    '/gzip-bomb': serveText(gzipSync(big), 'text/plain', { 'content-encoding': 'gzip' }),
    '/gzip': serveText(gzipSync(Buffer.from('zipped text')), 'text/plain', { 'content-encoding': 'gzip' }),
    '/latin1': serveText(Buffer.from('caf\xe9', 'latin1'), 'text/plain; charset=iso-8859-1'),
    '/slow': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('start');
      const t = setTimeout(() => res.end('late'), 5000);
      res.on('close', () => clearTimeout(t));
    },
    '/hang': () => {
      // never answers
    },
    '/echo': (req, res, body) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ method: req.method, body, h: req.headers })),
  });
});

afterAll(async () => {
  diagnostics.unsubscribe('net.client.socket', onSocket);
  for (const s of created) s.destroy();
  await server.close();
});

afterEach(() => {
  expect(connectedTo.filter((a) => a !== '127.0.0.1')).toEqual([]);
});

async function refusal(p: Promise<unknown>): Promise<SourceError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(SourceError);
  return err as SourceError;
}

describe('classifyAddress', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['10.0.0.1', 'private or reserved'],
    ['172.16.5.4', 'private or reserved'],
    ['192.168.1.1', 'private or reserved'],
    ['100.64.0.1', 'private or reserved'],
    ['169.254.169.254', 'link-local'],
    ['0.0.0.0', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'private or reserved'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'link-local'],
    ['fd00::1', 'private or reserved'],
    ['ff02::1', 'multicast'],
    ['::ffff:127.0.0.1', 'loopback (IPv4 inside IPv6)'],
    ['::ffff:7f00:1', 'loopback (IPv4 inside IPv6)'],
    ['::ffff:a00:1', 'private or reserved (IPv4 inside IPv6)'],
    ['64:ff9b::a9fe:a9fe', 'link-local (IPv4 inside IPv6)'],
    ['2002:7f00:1::', 'loopback (IPv4 inside IPv6)'],
    ['not-an-ip', 'not a valid address'],
  ])('%s is refused as %s', (ip, why) => {
    expect(classifyAddress(ip)).toBe(why);
  });

  it.each(['8.8.8.8', '1.1.1.1', '93.184.216.34', '2606:4700:4700::1111', '::ffff:8.8.8.8'])('%s is public', (ip) => {
    expect(classifyAddress(ip)).toBeNull();
  });
});

describe('createSafeFetch: SSRF guard', () => {
  const guarded = createSafeFetch({ allowPrivate: false });

  it.each([
    ['http://127.0.0.1/', 'loopback'],
    ['http://10.0.0.1/', 'private'],
    ['http://169.254.169.254/latest/meta-data/', 'link-local'],
    ['http://[::1]/', 'loopback'],
    ['http://[::ffff:127.0.0.1]/', 'loopback'],
    ['http://0.0.0.0/', 'unspecified'],
    ['http://2130706433/', 'loopback'], // 127.0.0.1 as a single number
    ['http://0x7f.1/', 'loopback'],
  ])('refuses %s before connecting', async (url, why) => {
    const err = await refusal(guarded(url));
    expect(err.message).toMatch(/^refused to fetch /);
    expect(err.message).toContain(why);
  });

  it('refuses the local test server itself (127.0.0.1 with its port)', async () => {
    const err = await refusal(guarded(server.url('/ok')));
    expect(err.message).toContain('loopback');
    expect(server.hits.some((h) => h.url === '/ok')).toBe(false);
  });

  it('refuses a name that resolves to a private address, and one with any private address among public ones', async () => {
    const resolving = createSafeFetch({
      allowPrivate: false,
      resolve: async (name) =>
        name === 'mixed.example'
          ? [
              { address: '93.184.216.34', family: 4 },
              { address: '10.1.2.3', family: 4 },
            ]
          : [{ address: '169.254.169.254', family: 4 }],
    });
    expect((await refusal(resolving('http://metadata.example/'))).message).toBe('refused to fetch metadata.example: 169.254.169.254 is not a public address (link-local)');
    expect((await refusal(resolving('https://mixed.example/'))).message).toContain('10.1.2.3 is not a public address (private or reserved)');
  });

  it('refuses localhost by resolution', async () => {
    const err = await refusal(guarded('http://localhost:9/'));
    expect(err.message).toMatch(/localhost: (127\.0\.0\.1|::1) is not a public address \(loopback\)/);
  });

  // The first hop (our own server on 127.0.0.1) is allowed by a predicate; redirects are re-checked.
  const onlyLocal = createSafeFetch({ allowPrivate: false, isAllowedAddress: (ip) => ip === '127.0.0.1' });

  it('follows a redirect to an allowed address', async () => {
    const res = await onlyLocal(server.url('/to-ok'));
    expect(res.status).toBe(200);
    expect(res.text()).toBe('hello');
    expect(res.url).toBe(server.url('/ok'));
  });

  it('refuses a redirect to a private address (10.0.0.1) without connecting', async () => {
    const err = await refusal(onlyLocal(server.url('/to-private')));
    expect(err.message).toBe('refused to fetch 10.0.0.1: 10.0.0.1 is not a public address (private or reserved)');
  });

  it('refuses a redirect to the cloud metadata address', async () => {
    const err = await refusal(onlyLocal(server.url('/to-metadata')));
    expect(err.message).toContain('169.254.169.254 is not a public address (link-local)');
  });

  it('refuses a redirect to a name that resolves privately', async () => {
    const f = createSafeFetch({
      allowPrivate: false,
      isAllowedAddress: (ip) => ip === '127.0.0.1',
      resolve: async (name) => [{ address: name === 'internal.example' ? '192.168.0.10' : '127.0.0.1', family: 4 }],
    });
    const err = await refusal(f(server.url('/to-name')));
    expect(err.message).toContain('internal.example: 192.168.0.10 is not a public address (private or reserved)');
  });

  it('refuses other schemes, directly and by redirect, and redirect loops', async () => {
    expect((await refusal(onlyLocal('file:///etc/passwd'))).message).toBe('only http and https URLs can be fetched, not file');
    expect((await refusal(onlyLocal('ftp://example.com/x'))).message).toContain('not ftp');
    expect((await refusal(onlyLocal(server.url('/to-file')))).message).toContain('not file');
    expect((await refusal(onlyLocal(server.url('/loop')))).message).toBe('too many redirects (more than 5)');
  });

  it('allows private addresses when told to (ALLOW_PRIVATE_SOURCES=true)', async () => {
    const open = createSafeFetch({ allowPrivate: true });
    const res = await open(server.url('/ok'));
    expect(res.text()).toBe('hello');
  });
});

describe('createSafeFetch: limits and bodies', () => {
  const open = createSafeFetch({ allowPrivate: true });

  it('refuses a 20 MB response (declared length)', async () => {
    const err = await refusal(open(server.url('/big')));
    expect(err.message).toBe('response larger than 10 MB');
  });

  it('refuses a 20 MB response while streaming (no length)', async () => {
    const err = await refusal(open(server.url('/big-chunked')));
    expect(err.message).toBe('response larger than 10 MB');
  });

  it('applies the cap to decompressed bytes (gzip bomb)', async () => {
    const err = await refusal(open(server.url('/gzip-bomb')));
    expect(err.message).toBe('response larger than 10 MB');
  });

  it('decompresses gzip and decodes the declared charset', async () => {
    expect((await open(server.url('/gzip'))).text()).toBe('zipped text');
    expect((await open(server.url('/latin1'))).text()).toBe('café');
  });

  it('times out a slow body and a server that never answers', async () => {
    const quick = createSafeFetch({ allowPrivate: true, timeoutMs: 200 });
    const started = Date.now();
    expect((await refusal(quick(server.url('/slow')))).message).toBe('timed out after 0.2 s');
    expect((await refusal(quick(server.url('/hang')))).message).toBe('timed out after 0.2 s');
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('sends method, body and headers', async () => {
    const res = await open(server.url('/echo'), { method: 'POST', body: '{"q":1}', headers: { 'Content-Type': 'application/json', 'If-None-Match': '"abc"' } });
    const echoed = JSON.parse(res.text()) as { method: string; body: string; h: Record<string, string> };
    expect(echoed.method).toBe('POST');
    expect(echoed.body).toBe('{"q":1}');
    expect(echoed.h['if-none-match']).toBe('"abc"');
    expect(echoed.h['user-agent']).toMatch(/^Townbeat/);
    expect(res.headers['content-type']).toBe('application/json');
  });

  it('reports a refused connection as a SourceError', async () => {
    const err = await refusal(open('http://127.0.0.1:1/'));
    expect(err.message).toMatch(/could not fetch 127\.0\.0\.1:1: ECONNREFUSED/);
    // The host was not reached: callers can tell this from a page without events.
    expect(err).toBeInstanceOf(SourceUnreachable);
    expect((err as SourceUnreachable).why).toBe('127.0.0.1:1: the connection was refused (ECONNREFUSED)');
  });

  it('reports a name that does not resolve as unreachable', async () => {
    const f = createSafeFetch({ allowPrivate: false, resolve: () => Promise.reject(Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' })) });
    const err = await refusal(f('https://nowhere.invalid/'));
    expect(err).toBeInstanceOf(SourceUnreachable);
    expect(err.message).toBe('could not resolve nowhere.invalid (ENOTFOUND)');
    expect((err as SourceUnreachable).why).toBe('no host named nowhere.invalid was found (ENOTFOUND)');
  });
});
