import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/*
 * End to end OpenID Connect sign-in against a real provider (oidc-provider) served over HTTPS
 * with a private CA, and the real server started the way `npm start` starts it. The app trusts
 * the provider only through NODE_EXTRA_CA_CERTS; without it, discovery must fail.
 */

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const CLIENT_ID = 'townbeat-test';
const CLIENT_SECRET = 'a-test-client-secret-that-is-long-enough';
const ACCOUNT = {
  email: 'oidc.user@example.org',
  email_verified: true,
  given_name: 'Olive',
  family_name: 'Idc',
};

// oidc-provider ships no type declarations; these are the few parts the test touches.
interface OidcProvider {
  callback(): (req: http.IncomingMessage, res: http.ServerResponse) => void;
  on(event: string, listener: (...args: unknown[]) => void): void;
}
type OidcProviderCtor = new (issuer: string, configuration: Record<string, unknown>) => OidcProvider;

interface Res {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** Cookies per host, as a browser keeps them (paths are ignored: each host's names are distinct). */
class CookieJar {
  private readonly byHost = new Map<string, Map<string, string>>();

  header(url: URL): string | undefined {
    const jar = this.byHost.get(url.host);
    if (!jar || jar.size === 0) return undefined;
    return [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  store(url: URL, setCookie: string[] | undefined) {
    let jar = this.byHost.get(url.host);
    if (!jar) this.byHost.set(url.host, (jar = new Map()));
    for (const line of setCookie ?? []) {
      const [pair = '', ...attrs] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attrs.some((a) => {
        const [k = '', v = ''] = a.trim().split('=');
        if (k.toLowerCase() === 'max-age') return Number(v) <= 0;
        if (k.toLowerCase() === 'expires') return Date.parse(a.trim().slice(8)) <= Date.now();
        return false;
      });
      if (!value || expired) jar.delete(name);
      else jar.set(name, value);
    }
  }

  get(host: string, name: string) {
    return this.byHost.get(host)?.get(name);
  }
}

let caPem = '';

/** One plain HTTP(S) request; HTTPS is verified against the test CA only. */
function request(
  url: URL,
  opts: { method?: string; jar?: CookieJar; headers?: Record<string, string>; form?: Record<string, string> } = {},
): Promise<Res> {
  const body = opts.form ? new URLSearchParams(opts.form).toString() : undefined;
  const headers: Record<string, string> = { accept: 'text/html,application/json', ...opts.headers };
  const cookie = opts.jar?.header(url);
  if (cookie) headers.cookie = cookie;
  if (body !== undefined) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    headers['content-length'] = String(Buffer.byteLength(body));
  }
  const isHttps = url.protocol === 'https:';
  return new Promise((resolve, reject) => {
    const req = (isHttps ? https : http).request(
      url,
      { method: opts.method ?? 'GET', headers, family: 4, agent: false, ...(isHttps ? { ca: caPem } : {}) },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          opts.jar?.store(url, res.headers['set-cookie']);
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.setTimeout(15_000, () => req.destroy(new Error(`timeout: ${url.href}`)));
    req.end(body);
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

function setCookieNames(res: Res): string[] {
  return (res.headers['set-cookie'] ?? []).map((l) => l.split('=')[0]!.trim());
}

/** Whether the response sets a non-empty session cookie. */
function setsSession(res: Res): boolean {
  return (res.headers['set-cookie'] ?? []).some((l) => /^tb_session=[^;]+/.test(l) && !/max-age=0|expires=thu, 01 jan 1970/i.test(l));
}

function htmlDecode(s: string) {
  return s.replace(/&amp;/g, '&').replace(/&#x2F;/gi, '/').replace(/&#39;/g, "'").replace(/&quot;/g, '"');
}

interface AppProcess {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function startApp(env: Record<string, string>): AppProcess {
  let out = '';
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    cwd: ROOT,
    // A clean environment: nothing from the test run (no NODE_EXTRA_CA_CERTS, no database URL) leaks in.
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? tmpdir(), TMPDIR: tmpdir(), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => out, exited };
}

async function stopApp(app: AppProcess | undefined) {
  if (!app || app.child.exitCode !== null || app.child.signalCode !== null) return;
  app.child.kill('SIGTERM');
  const timer = setTimeout(() => app.child.kill('SIGKILL'), 12_000);
  await app.exited;
  clearTimeout(timer);
}

describe('OpenID Connect sign-in against a real provider', () => {
  const dirs: string[] = [];
  let providerServer: https.Server;
  let issuer = '';
  let appOrigin = '';
  let appPort = 0;
  let caFile = '';
  let app: AppProcess | undefined;
  const providerErrors: unknown[] = [];

  function mkTemp(prefix: string) {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    dirs.push(dir);
    return dir;
  }

  function appEnv(dataDir: string): Record<string, string> {
    return {
      NODE_ENV: 'test',
      PORT: String(appPort),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      PUBLIC_URL: appOrigin,
      OIDC_ISSUER_URL: issuer,
      OIDC_CLIENT_ID: CLIENT_ID,
      OIDC_CLIENT_SECRET: CLIENT_SECRET,
      LOG_LEVEL: 'warn',
      SEED_DEMO: 'false',
    RUN_SCHEDULER: 'false',
    };
  }

  beforeAll(async () => {
    // A private CA and a certificate for localhost signed by it.
    const pki = mkTemp('townbeat-oidc-pki-');
    const ossl = (...args: string[]) => execFileSync('openssl', args, { cwd: pki, stdio: 'pipe' });
    const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
    ossl('req', '-x509', ...ec, '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '2', '-subj', '/CN=Townbeat Test CA',
      '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign');
    ossl('req', ...ec, '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=localhost');
    writeFileSync(
      join(pki, 'server.ext'),
      'subjectAltName=DNS:localhost,IP:127.0.0.1\nbasicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=serverAuth\n',
    );
    ossl('x509', '-req', '-in', 'server.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial',
      '-out', 'server.pem', '-days', '2', '-extfile', 'server.ext');
    caFile = join(pki, 'ca.pem');
    caPem = readFileSync(caFile, 'utf8');

    // The provider, over HTTPS on a free port; the issuer names localhost as the certificate does.
    let handler: (req: http.IncomingMessage, res: http.ServerResponse) => void = (_req, res) => res.end();
    providerServer = https.createServer(
      { key: readFileSync(join(pki, 'server.key')), cert: readFileSync(join(pki, 'server.pem')) },
      (req, res) => handler(req, res),
    );
    await new Promise<void>((resolve) => providerServer.listen(0, '127.0.0.1', resolve));
    const providerPort = (providerServer.address() as net.AddressInfo).port;
    issuer = `https://localhost:${providerPort}`;

    appPort = await freePort();
    appOrigin = `http://localhost:${appPort}`;

    const { default: Provider } = (await import('oidc-provider' as string)) as { default: OidcProviderCtor };
    const provider = new Provider(issuer, {
      clients: [
        {
          client_id: CLIENT_ID,
          client_secret: CLIENT_SECRET,
          redirect_uris: [`${appOrigin}/api/callback`],
          grant_types: ['authorization_code'],
          response_types: ['code'],
        },
      ],
      pkce: { required: () => true },
      claims: {
        openid: ['sub'],
        email: ['email', 'email_verified'],
        profile: ['given_name', 'family_name'],
      },
      features: { devInteractions: { enabled: true } },
      cookies: { keys: ['townbeat-test-cookie-key-0123456789'] },
      findAccount: async (_ctx: unknown, id: string) => ({
        accountId: id,
        claims: async () => ({ sub: id, ...ACCOUNT }),
      }),
    });
    provider.on('server_error', (_ctx, err) => providerErrors.push(err));
    handler = provider.callback();

    app = startApp({ ...appEnv(mkTemp('townbeat-oidc-data-')), NODE_EXTRA_CA_CERTS: caFile });
    const deadline = Date.now() + 150_000;
    for (;;) {
      if (app.child.exitCode !== null) throw new Error(`the app exited early:\n${app.output()}`);
      const ok = await request(new URL('/api/health', appOrigin)).then(
        (r) => r.status === 200,
        () => false,
      );
      if (ok) break;
      if (Date.now() > deadline) throw new Error(`the app did not answer /api/health within 150 s:\n${app.output()}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }, 180_000);

  afterAll(async () => {
    await stopApp(app);
    if (providerServer) {
      providerServer.closeAllConnections();
      await new Promise((resolve) => providerServer.close(resolve));
    }
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }, 30_000);

  /**
   * From the app's /api/login to the provider's redirect back to /api/callback: follows
   * redirects and fills in the provider's login and consent forms. Returns the callback URL
   * without requesting it.
   */
  async function signInAtProvider(jar: CookieJar, returnTo = '/map') {
    const login = await request(new URL(`/api/login?returnTo=${encodeURIComponent(returnTo)}`, appOrigin), { jar });
    expect(login.status).toBe(302);
    expect(setCookieNames(login)).toContain('tb_oidc');
    const authUrl = new URL(login.headers.location!);

    let url = authUrl;
    let res: Res | undefined;
    for (let step = 0; step < 20; step++) {
      if (url.origin === appOrigin) return { authUrl, callbackUrl: url };
      res = await request(url, { jar });
      if (res.status >= 300 && res.status < 400 && res.headers.location) {
        url = new URL(res.headers.location, url);
        continue;
      }
      const action = /<form[^>]*action="([^"]+)"[^>]*method="post"/i.exec(res.body)?.[1];
      const prompt = /name="prompt" value="([^"]+)"/.exec(res.body)?.[1];
      if (res.status !== 200 || !action || !prompt) break;
      const form: Record<string, string> =
        prompt === 'login' ? { prompt, login: 'olive', password: 'any password' } : { prompt };
      const submitUrl = new URL(htmlDecode(action), url);
      res = await request(submitUrl, { method: 'POST', jar, form });
      if (!(res.status >= 300 && res.status < 400 && res.headers.location)) break;
      url = new URL(res.headers.location, submitUrl);
    }
    throw new Error(
      `the provider did not send the browser back to the app; last: ${url.href} -> ${res?.status} ${res?.body.slice(0, 500)}` +
        `\nprovider errors: ${providerErrors.map(String).join('; ')}`,
    );
  }

  it('signs in through the provider with PKCE, state and nonce, and creates the first user as admin', async () => {
    const jar = new CookieJar();
    const { authUrl, callbackUrl } = await signInAtProvider(jar, '/map');

    // The authorization request the app built.
    expect(authUrl.origin).toBe(issuer);
    const q = authUrl.searchParams;
    expect(q.get('response_type')).toBe('code');
    expect(q.get('client_id')).toBe(CLIENT_ID);
    expect(q.get('redirect_uri')).toBe(`${appOrigin}/api/callback`);
    expect(q.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(q.get('code_challenge_method')).toBe('S256');
    expect(q.get('state')).toMatch(/^[\w-]{16,}$/);
    expect(q.get('nonce')).toMatch(/^[\w-]{16,}$/);
    expect(q.get('scope')?.split(' ')).toEqual(expect.arrayContaining(['openid', 'email', 'profile']));

    // The provider's answer.
    expect(callbackUrl.pathname).toBe('/api/callback');
    expect(callbackUrl.searchParams.get('code')).toBeTruthy();
    expect(callbackUrl.searchParams.get('state')).toBe(q.get('state'));

    const callback = await request(callbackUrl, { jar });
    expect(callback.status, `${callback.body}\n${app?.output()}`).toBe(302);
    // A new account takes the welcome step, then goes where it was going.
    expect(callback.headers.location).toBe('/welcome?returnTo=%2Fmap');
    expect(setsSession(callback)).toBe(true);
    expect(jar.get(new URL(appOrigin).host, 'tb_oidc')).toBeUndefined();

    const me = await request(new URL('/api/auth/user', appOrigin), { jar });
    expect(me.status).toBe(200);
    expect(JSON.parse(me.body)).toMatchObject({
      email: ACCOUNT.email,
      firstName: 'Olive',
      lastName: 'Idc',
      role: 'admin',
    });

    // Signing in again links to the same account.
    const again = new CookieJar();
    const second = await signInAtProvider(again, '/');
    const callback2 = await request(second.callbackUrl, { jar: again });
    expect(callback2.status).toBe(302);
    expect(callback2.headers.location).toBe('/');
    expect(setsSession(callback2)).toBe(true);
    const me2 = await request(new URL('/api/auth/user', appOrigin), { jar: again });
    expect(JSON.parse(me2.body)).toMatchObject({ id: JSON.parse(me.body).id, email: ACCOUNT.email });
  });

  it('refuses a callback whose state does not match, or that lacks the sign-in cookie', async () => {
    const jar = new CookieJar();
    const { callbackUrl } = await signInAtProvider(jar);
    const appHost = new URL(appOrigin).host;
    const oidcCookie = jar.get(appHost, 'tb_oidc');
    expect(oidcCookie).toBeTruthy();

    // A state other than the one this browser started with.
    const tampered = new URL(callbackUrl);
    tampered.searchParams.set('state', 'x'.repeat(43));
    const res = await request(tampered, { jar });
    expect(res.status).toBe(401);
    expect(setsSession(res)).toBe(false);
    expect(jar.get(appHost, 'tb_session')).toBeUndefined();

    // The genuine callback without the sign-in cookie (a code carried to another browser).
    const res2 = await request(callbackUrl, { jar: new CookieJar() });
    expect(res2.status).toBe(401);
    expect(setsSession(res2)).toBe(false);

    // Nothing signed this browser in.
    const me = await request(new URL('/api/auth/user', appOrigin), { jar });
    expect(me.status).toBe(401);
  });

  it('cannot reach the provider without the private CA: TLS is never switched off', async () => {
    const port = await freePort();
    const untrusting = startApp({
      ...appEnv(mkTemp('townbeat-oidc-noca-')),
      PORT: String(port),
      PUBLIC_URL: `http://localhost:${port}`,
    });
    try {
      const code = await Promise.race([
        untrusting.exited,
        new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), 60_000)),
      ]);
      expect(code, untrusting.output()).not.toBe('timeout');
      expect(code).not.toBe(0);
      // Node's own verification error, e.g. "unable to verify the first certificate".
      expect(untrusting.output()).toMatch(/certificate/i);
      expect(untrusting.output()).toMatch(/UNABLE_TO_VERIFY_LEAF_SIGNATURE|SELF_SIGNED_CERT|UNABLE_TO_GET_ISSUER_CERT/);
      const health = await request(new URL('/api/health', `http://localhost:${port}`)).catch(() => null);
      expect(health).toBeNull();
    } finally {
      await stopApp(untrusting);
    }
  }, 70_000);
});
