// Outgoing HTTP for sources: refuses private networks (SSRF), caps size and time, follows
// redirects by hand so every hop is checked again.
//
// The address check runs on the resolved address, inside the `lookup` that the socket uses to
// connect, so a name that resolves to a private address is refused before any connection is
// opened (no window between a check and a second resolution). IP-literal hosts never reach
// `lookup` (Node connects to them directly), so they are checked before the request is made.

import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import zlib from 'node:zlib';
import type { Readable } from 'node:stream';
import { bomEncoding, decodeText } from '../../../../contract/decode-text.ts';
import { SourceError, SourceUnreachable, type FetchResult, type SafeFetch, type SafeFetchInit } from '../ingestion.types.ts';

export const DEFAULT_MAX_BYTES = 10 * 1024 * 1024;
export const DEFAULT_TIMEOUT_MS = 20_000;
export const DEFAULT_MAX_REDIRECTS = 5;
const DEFAULT_USER_AGENT = 'Townbeat/0.1 (+events calendar; feed reader)';

export type LookupAddress = { address: string; family: number };
/** A resolver with dns.lookup's `{ all: true }` shape; injectable for tests. */
export type Resolver = (hostname: string) => Promise<LookupAddress[]>;

export interface SafeFetchOptions {
  /** Allow private, loopback and link-local addresses (ALLOW_PRIVATE_SOURCES=true, tests). */
  allowPrivate: boolean;
  maxBytes?: number;
  timeoutMs?: number;
  maxRedirects?: number;
  userAgent?: string;
  /**
   * Addresses for which this returns true are allowed even when private. Tests use it to allow
   * exactly 127.0.0.1 (their local server) while everything else stays refused.
   */
  isAllowedAddress?: (ip: string) => boolean;
  /** Name resolution (default: dns.lookup with all addresses). Tests inject names. */
  resolve?: Resolver;
}

// ---------------------------------------------------------------------------------------------
// Address classification

/** 16 bytes of an IPv6 address (or null when it is not one). */
function parseIPv6(ip: string): number[] | null {
  if (net.isIPv6(ip) === false) return null;
  let text = ip;
  const zone = text.indexOf('%');
  if (zone >= 0) text = text.slice(0, zone);
  // A trailing dotted IPv4 part (::ffff:1.2.3.4) becomes two hextets.
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const v4 = dotted[1]!.split('.').map(Number);
    text = text.slice(0, -dotted[1]!.length) + `${((v4[0]! << 8) | v4[1]!).toString(16)}:${((v4[2]! << 8) | v4[3]!).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? (text.split('::') as [string, string]) : [text, null];
  const headParts = head ? head.split(':') : [];
  const tailParts = tail === null ? [] : tail ? tail.split(':') : [];
  const missing = 8 - headParts.length - tailParts.length;
  const hextets = [...headParts, ...Array<string>(tail === null ? 0 : missing).fill('0'), ...tailParts];
  if (hextets.length !== 8) return null;
  const bytes: number[] = [];
  for (const h of hextets) {
    const n = parseInt(h, 16);
    bytes.push((n >> 8) & 0xff, n & 0xff);
  }
  return bytes;
}

type Cidr = [bytes: number[], prefix: number];
const v4 = (a: number, b: number, c: number, d: number, prefix: number): Cidr => [[a, b, c, d], prefix];
const v6 = (hex: string, prefix: number): Cidr => [parseIPv6(hex)!, prefix];

/** IPv4 ranges that are not the public internet (RFC 6890 and friends). */
const BLOCKED_V4: Cidr[] = [
  v4(0, 0, 0, 0, 8), // "this network", includes 0.0.0.0 (unspecified)
  v4(10, 0, 0, 0, 8), // private
  v4(100, 64, 0, 0, 10), // carrier-grade NAT
  v4(127, 0, 0, 0, 8), // loopback
  v4(169, 254, 0, 0, 16), // link-local (cloud metadata lives here)
  v4(172, 16, 0, 0, 12), // private
  v4(192, 0, 0, 0, 24), // IETF protocol assignments
  v4(192, 0, 2, 0, 24), // TEST-NET-1
  v4(192, 88, 99, 0, 24), // 6to4 relay anycast
  v4(192, 168, 0, 0, 16), // private
  v4(198, 18, 0, 0, 15), // benchmarking
  v4(198, 51, 100, 0, 24), // TEST-NET-2
  v4(203, 0, 113, 0, 24), // TEST-NET-3
  v4(224, 0, 0, 0, 4), // multicast
  v4(240, 0, 0, 0, 4), // reserved, includes 255.255.255.255 (broadcast)
];

const BLOCKED_V6: Cidr[] = [
  v6('::', 128), // unspecified
  v6('::1', 128), // loopback
  v6('100::', 64), // discard-only
  v6('2001:db8::', 32), // documentation
  v6('fc00::', 7), // unique local
  v6('fe80::', 10), // link-local
  v6('fec0::', 10), // site-local (deprecated)
  v6('ff00::', 8), // multicast
];

function inCidr(bytes: number[], [net, prefix]: Cidr): boolean {
  let bits = prefix;
  for (let i = 0; bits > 0; i++, bits -= 8) {
    const mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff;
    if (((bytes[i] ?? 0) & mask) !== ((net[i] ?? 0) & mask)) return false;
  }
  return true;
}

/** The IPv4 address an IPv6 address carries (mapped, compatible, NAT64, 6to4), if any. */
function embeddedV4(b: number[]): number[] | null {
  const zeros = (from: number, to: number) => b.slice(from, to).every((x) => x === 0);
  if (zeros(0, 10) && b[10] === 0xff && b[11] === 0xff) return b.slice(12); // ::ffff:a.b.c.d
  if (zeros(0, 8) && b[8] === 0xff && b[9] === 0xff && zeros(10, 12)) return b.slice(12); // ::ffff:0:a.b.c.d
  if (zeros(0, 12)) return b.slice(12); // ::a.b.c.d (deprecated compatible form)
  if (b[0] === 0x00 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b && zeros(4, 12)) return b.slice(12); // 64:ff9b::/96
  if (b[0] === 0x20 && b[1] === 0x02) return b.slice(2, 6); // 6to4 2002::/16
  return null;
}

/**
 * Why an address is not on the public internet ("loopback", "private", ...), or null when it
 * is a public address. Anything that does not parse as an IP address is refused too.
 */
export function classifyAddress(ip: string): string | null {
  const family = net.isIP(ip);
  if (family === 4) {
    const bytes = ip.split('.').map(Number);
    return BLOCKED_V4.some((c) => inCidr(bytes, c)) ? describeV4(bytes) : null;
  }
  if (family === 6) {
    const bytes = parseIPv6(ip);
    if (!bytes) return 'not a valid address';
    if (inCidr(bytes, v6('::1', 128))) return 'loopback';
    if (inCidr(bytes, v6('::', 128))) return 'unspecified';
    const inner = embeddedV4(bytes);
    if (inner && BLOCKED_V4.some((c) => inCidr(inner, c))) return `${describeV4(inner)} (IPv4 inside IPv6)`;
    if (inCidr(bytes, v6('fe80::', 10))) return 'link-local';
    if (inCidr(bytes, v6('ff00::', 8))) return 'multicast';
    return BLOCKED_V6.some((c) => inCidr(bytes, c)) ? 'private or reserved' : null;
  }
  return 'not a valid address';
}

function describeV4(b: number[]): string {
  if (b[0] === 127) return 'loopback';
  if (b[0] === 0) return 'unspecified';
  if (b[0] === 169 && b[1] === 254) return 'link-local';
  if (b[0]! >= 224 && b[0]! < 240) return 'multicast';
  return 'private or reserved';
}

// ---------------------------------------------------------------------------------------------
// Fetch

const defaultResolve: Resolver = (hostname) =>
  new Promise((resolve, reject) => {
    dns.lookup(hostname, { all: true, verbatim: true }, (err, addresses) => (err ? reject(err) : resolve(addresses)));
  });

function formatSeconds(ms: number): string {
  const s = ms / 1000;
  return Number.isInteger(s) ? String(s) : String(Math.round(s * 100) / 100);
}

function formatMegabytes(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  return mb >= 1 ? `${Math.round(mb * 10) / 10} MB` : `${Math.round(bytes / 1024)} KB`;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

export function createSafeFetch(opts: SafeFetchOptions): SafeFetch {
  const maxBytes = opts.maxBytes ?? DEFAULT_MAX_BYTES;
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxRedirects = opts.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
  const userAgent = opts.userAgent ?? DEFAULT_USER_AGENT;
  const resolveName = opts.resolve ?? defaultResolve;

  /** Throws when the address may not be contacted. */
  function checkAddress(ip: string, host: string): void {
    if (opts.allowPrivate) return;
    if (opts.isAllowedAddress?.(ip)) return;
    const why = classifyAddress(ip);
    if (why) throw new SourceError(`refused to fetch ${host}: ${ip} is not a public address (${why})`);
  }

  // The lookup the socket connects with: every resolved address must be allowed, so a name with
  // one public and one private record cannot be used to reach the private one.
  const guardedLookup = ((hostname: string, options: dns.LookupOptions, callback: (...args: unknown[]) => void) => {
    resolveName(hostname).then(
      (addresses) => {
        try {
          if (addresses.length === 0) throw new SourceUnreachable(`could not resolve ${hostname}`, `no host named ${hostname} was found`);
          for (const a of addresses) checkAddress(a.address, hostname);
          const wanted = options.family === 4 || options.family === 6 ? addresses.filter((a) => a.family === options.family) : addresses;
          if (wanted.length === 0) throw new SourceError(`could not resolve ${hostname} (IPv${options.family})`);
          if (options.all) callback(null, wanted);
          else callback(null, wanted[0]!.address, wanted[0]!.family);
        } catch (err) {
          callback(err);
        }
      },
      (err: NodeJS.ErrnoException) => {
        const code = err.code ?? err.message;
        callback(new SourceUnreachable(`could not resolve ${hostname} (${code})`, `no host named ${hostname} was found (${code})`));
      },
    );
  }) as unknown as net.LookupFunction;

  function oneRequest(url: URL, init: SafeFetchInit, signal: AbortSignal): Promise<{ res: http.IncomingMessage; req: http.ClientRequest }> {
    return new Promise((resolve, reject) => {
      const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
      if (net.isIP(host)) {
        try {
          checkAddress(host, url.host);
        } catch (err) {
          reject(err);
          return;
        }
      }
      const headers: Record<string, string> = {
        'user-agent': userAgent,
        accept: '*/*',
        'accept-encoding': 'gzip, deflate, br',
        ...lowerKeys(init.headers ?? {}),
      };
      if (init.body !== undefined) headers['content-length'] = String(Buffer.byteLength(init.body));
      const mod = url.protocol === 'https:' ? https : http;
      const req = mod.request(url, {
        method: init.method ?? 'GET',
        headers,
        lookup: guardedLookup,
        agent: false,
        signal,
        // Node's default is 16 KB; a source has no reason to send more.
        maxHeaderSize: 32 * 1024,
      });
      req.once('response', (res) => resolve({ res, req }));
      req.once('error', (err) => reject(err));
      if (init.body !== undefined) req.write(init.body);
      req.end();
    });
  }

  function readBody(res: http.IncomingMessage, signal: AbortSignal): Promise<Buffer> {
    const declared = Number(res.headers['content-length']);
    if (Number.isFinite(declared) && declared > maxBytes && !res.headers['content-encoding']) {
      res.destroy();
      return Promise.reject(tooLarge());
    }
    let stream: Readable = res;
    const encoding = String(res.headers['content-encoding'] ?? '').trim().toLowerCase();
    if (encoding === 'gzip' || encoding === 'x-gzip') stream = res.pipe(zlib.createGunzip());
    else if (encoding === 'br') stream = res.pipe(zlib.createBrotliDecompress());
    else if (encoding === 'deflate') stream = res.pipe(zlib.createInflate());
    return new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      let size = 0;
      let done = false;
      const finish = (err: unknown, body?: Buffer) => {
        if (done) return;
        done = true;
        signal.removeEventListener('abort', onAbort);
        if (err) {
          res.destroy();
          if (stream !== res) stream.destroy();
          reject(err);
        } else resolve(body!);
      };
      const onAbort = () => finish(signal.reason);
      signal.addEventListener('abort', onAbort);
      stream.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > maxBytes) finish(tooLarge());
        else chunks.push(chunk);
      });
      stream.on('end', () => finish(null, Buffer.concat(chunks)));
      stream.on('error', (err: Error) => finish(done ? err : new SourceError(`could not read the response: ${err.message}`)));
      res.on('error', (err: Error) => finish(new SourceUnreachable(`connection failed while reading: ${err.message}`, `the connection failed while reading (${err.message})`)));
    });
  }

  const tooLarge = () => new SourceError(`response larger than ${formatMegabytes(maxBytes)}`);

  return async function safeFetch(input: string, init: SafeFetchInit = {}): Promise<FetchResult> {
    const controller = new AbortController();
    const timedOut = new SourceError(`timed out after ${formatSeconds(timeoutMs)} s`);
    const timer = setTimeout(() => controller.abort(timedOut), timeoutMs);
    try {
      let url = parseUrl(input);
      let request: SafeFetchInit = { ...init };
      for (let hop = 0; ; hop++) {
        let response: { res: http.IncomingMessage; req: http.ClientRequest };
        try {
          response = await oneRequest(url, request, controller.signal);
        } catch (err) {
          throw asSourceError(err, controller.signal, url);
        }
        const { res } = response;
        const status = res.statusCode ?? 0;
        const location = res.headers.location;
        if (REDIRECTS.has(status) && location) {
          res.resume();
          res.destroy();
          if (hop >= maxRedirects) throw new SourceError(`too many redirects (more than ${maxRedirects})`);
          const next = parseUrl(location, url);
          // 303, and 301/302 after a POST, turn into a GET without a body (as browsers do).
          if (status === 303 || ((status === 301 || status === 302) && request.method === 'POST')) {
            request = { ...request, method: 'GET', body: undefined };
          }
          // Credentials are not carried to another origin.
          if (next.origin !== url.origin && request.headers) {
            const { authorization: _a, cookie: _c, Authorization: _A, Cookie: _C, ...rest } = request.headers;
            request = { ...request, headers: rest };
          }
          url = next;
          continue;
        }
        let body: Buffer;
        try {
          body = await readBody(res, controller.signal);
        } catch (err) {
          throw asSourceError(err, controller.signal, url);
        }
        const headers: Record<string, string> = {};
        for (const [k, v] of Object.entries(res.headers)) {
          if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
        }
        const finalUrl = url.toString();
        let decoded: string | undefined;
        return {
          status,
          url: finalUrl,
          headers,
          body,
          text: () => (decoded ??= decodeBody(body, headers['content-type'])),
        };
      }
    } finally {
      clearTimeout(timer);
    }
  };
}

function lowerKeys(h: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) out[k.toLowerCase()] = v;
  return out;
}

function parseUrl(input: string, base?: URL): URL {
  let url: URL;
  try {
    url = new URL(input, base);
  } catch {
    throw new SourceError(`not a valid URL: ${input.slice(0, 200)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new SourceError(`only http and https URLs can be fetched, not ${url.protocol.replace(/:$/, '')}`);
  }
  return url;
}

function asSourceError(err: unknown, signal: AbortSignal, url: URL): SourceError {
  if (signal.aborted && signal.reason instanceof SourceError) return signal.reason;
  if (err instanceof SourceError) return err;
  // Errors thrown from our lookup come back wrapped by the socket: find the original.
  const cause = (err as { cause?: unknown })?.cause;
  if (cause instanceof SourceError) return cause;
  const e = err as NodeJS.ErrnoException;
  const what = e.code ? `${e.code}${e.message && !e.message.includes(e.code) ? ` ${e.message}` : ''}` : String(e?.message ?? err);
  const message = `could not fetch ${url.host}: ${what}`;
  // A socket error before any answer (refused, reset, no route): the host was not reached.
  const words = e.code && Object.hasOwn(CONNECT_ERRORS, e.code) ? CONNECT_ERRORS[e.code] : undefined;
  return words ? new SourceUnreachable(message, `${url.host}: ${words} (${e.code})`) : new SourceError(message);
}

/** Socket errors that mean the host was not reached, in words for people. */
const CONNECT_ERRORS: Record<string, string> = {
  ECONNREFUSED: 'the connection was refused',
  ECONNRESET: 'the connection was reset',
  EPIPE: 'the connection was closed',
  ETIMEDOUT: 'the connection timed out',
  EHOSTUNREACH: 'no route to the host',
  ENETUNREACH: 'the network is unreachable',
  EHOSTDOWN: 'the host is down',
  ECONNABORTED: 'the connection was aborted',
};

/**
 * Text of a body: a BOM, else the header's charset, an XML declaration or an HTML meta tag, else
 * UTF-8, or Windows-1252 for bytes that are not UTF-8 at all (decode-text.ts).
 */
export function decodeBody(body: Buffer, contentType: string | undefined): string {
  let charset = /charset\s*=\s*["']?([\w.:-]+)/i.exec(contentType ?? '')?.[1];
  if (!charset && !bomEncoding(body)) {
    const head = body.subarray(0, 1024).toString('latin1');
    charset = /^\s*<\?xml[^>]*encoding\s*=\s*["']([\w.:-]+)["']/i.exec(head)?.[1] ?? /<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/i.exec(head)?.[1];
  }
  return decodeText(body, charset);
}
