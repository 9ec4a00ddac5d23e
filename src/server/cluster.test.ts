import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { planWorkers, restartDelayMs, workerEnv } from './cluster.ts';
import { openTestDatabase } from './test/test-db.ts';
import type { Database } from './db/client.ts';

describe('planWorkers', () => {
  it('runs WEB_CONCURRENCY workers on PostgreSQL, one per core by default in production', () => {
    const url = 'postgres://db/townbeat';
    expect(planWorkers({ DATABASE_URL: url, WEB_CONCURRENCY: 3, NODE_ENV: 'development' }, 2)).toEqual({ workers: 3, note: null });
    expect(planWorkers({ DATABASE_URL: url, WEB_CONCURRENCY: undefined, NODE_ENV: 'production' }, 4)).toEqual({ workers: 4, note: null });
    expect(planWorkers({ DATABASE_URL: url, WEB_CONCURRENCY: undefined, NODE_ENV: 'development' }, 4)).toEqual({ workers: 1, note: null });
  });

  it('runs one process on the embedded database, saying why when more were asked for', () => {
    const asked = planWorkers({ DATABASE_URL: undefined, WEB_CONCURRENCY: 4, NODE_ENV: 'development' }, 2);
    expect(asked.workers).toBe(1);
    expect(asked.note).toMatch(/one process instead of 4: the embedded database .* one process only/);
    expect(planWorkers({ DATABASE_URL: undefined, WEB_CONCURRENCY: undefined, NODE_ENV: 'production' }, 2).workers).toBe(1);
    expect(planWorkers({ DATABASE_URL: undefined, WEB_CONCURRENCY: undefined, NODE_ENV: 'development' }, 2)).toEqual({ workers: 1, note: null });
  });
});

describe('workerEnv', () => {
  it('gives the scheduler and the demo seeding to the leader only', () => {
    const env = { RUN_SCHEDULER: true, SEED_DEMO: true };
    expect(workerEnv('leader', env)).toMatchObject({ RUN_SCHEDULER: 'true', SEED_DEMO: 'true' });
    expect(workerEnv('follower', env)).toMatchObject({ RUN_SCHEDULER: 'false', SEED_DEMO: 'false' });
    expect(workerEnv('leader', { RUN_SCHEDULER: false, SEED_DEMO: false })).toMatchObject({ RUN_SCHEDULER: 'false', SEED_DEMO: 'false' });
  });
});

describe('restartDelayMs', () => {
  it('restarts after a second, backing off while workers die young', () => {
    expect(restartDelayMs(60_000, 8000)).toBe(1000);
    expect(restartDelayMs(2000, 0)).toBe(1000);
    expect(restartDelayMs(2000, 1000)).toBe(2000);
    expect(restartDelayMs(2000, 20_000)).toBe(30_000);
  });
});

// ---- `npm start`'s process, started for real --------------------------------------------------

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

interface LogLine {
  pid: number;
  msg: string;
  [key: string]: unknown;
}

interface Started {
  child: ChildProcess;
  port: number;
  lines: LogLine[];
  output: () => string;
  waitFor(what: string, test: (lines: LogLine[]) => boolean, timeoutMs?: number): Promise<void>;
  exited: Promise<number | null>;
  /** The DATA_DIR made for it (another may be given in `env`). */
  dataDir: string;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Starts the server as `npm start` does (without the build), API only, on a free port. */
async function startServer(env: Record<string, string>): Promise<Started> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'townbeat-cluster-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    cwd: repoRoot,
    // A clean environment: nothing from the test run (a database URL, WEB_CONCURRENCY) leaks in.
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? tmpdir(), TMPDIR: tmpdir(), NODE_ENV: 'development', LOG_LEVEL: 'info', HOST: '127.0.0.1', PORT: String(port), DATA_DIR: dataDir, WEB_DIR: join(dataDir, 'no-web'), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  const lines: LogLine[] = [];
  const read = (chunk: Buffer) => {
    text += chunk.toString();
    const parts = text.split('\n');
    text = parts.pop() ?? '';
    for (const part of parts) {
      try {
        lines.push(JSON.parse(part) as LogLine);
      } catch {
        lines.push({ pid: -1, msg: part });
      }
    }
  };
  child.stdout!.on('data', read);
  child.stderr!.on('data', read);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  exited.then(() => rmSync(dataDir, { recursive: true, force: true }));
  const output = () => lines.map((l) => JSON.stringify(l)).join('\n');
  async function waitFor(what: string, test: (lines: LogLine[]) => boolean, timeoutMs = 90_000) {
    const until = Date.now() + timeoutMs;
    while (!test(lines)) {
      if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}) before ${what}:\n${output()}`);
      if (Date.now() > until) throw new Error(`timed out waiting for ${what}:\n${output()}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return { child, port, lines, output, waitFor, exited, dataDir };
}

const serving = (lines: LogLine[]) => lines.filter((l) => l.msg.startsWith('Townbeat is serving'));
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** The scheduler state of whichever worker took the connection (a new connection each time). */
async function schedulerStatus(port: number): Promise<string> {
  const res = await fetch(`http://127.0.0.1:${port}/api/health`, { headers: { connection: 'close' } });
  const body = (await res.json()) as { checks: { scheduler: { status: string } } };
  return body.checks.scheduler.status;
}

describe('npm start on the embedded database', () => {
  it('runs one process whatever WEB_CONCURRENCY says, and says why', async () => {
    const s = await startServer({ WEB_CONCURRENCY: '2', SEED_DEMO: 'false', RUN_SCHEDULER: 'true' });
    try {
      await s.waitFor('the server to listen', (lines) => serving(lines).length > 0);
      expect(s.lines.some((l) => /one process instead of 2: the embedded database/.test(l.msg))).toBe(true);
      expect(s.lines.some((l) => /starting \d+ workers/.test(l.msg))).toBe(false);
      // The process npm starts is the one serving: no worker was forked.
      expect(serving(s.lines).map((l) => l.pid)).toEqual([s.child.pid]);
      expect(await schedulerStatus(s.port)).toBe('running');
    } finally {
      s.child.kill('SIGTERM');
    }
    expect(await s.exited).toBe(0);
  }, 120_000);
});

describe('a second npm start beside a running one', () => {
  it('stops with a sentence on the same DATA_DIR or the same port, and the first keeps serving', async () => {
    const quiet = { SEED_DEMO: 'false', RUN_SCHEDULER: 'false' };
    const first = await startServer(quiet);
    try {
      await first.waitFor('the server to listen', (lines) => serving(lines).length > 0);
      // Before it touches the database: two processes writing one PGlite directory can ruin it.
      const sameDir = await startServer({ ...quiet, DATA_DIR: first.dataDir });
      expect(await sameDir.exited).toBe(1);
      expect(sameDir.output()).toContain(`The embedded database in ${first.dataDir} is in use by another Townbeat process (pid ${first.child.pid})`);
      const samePort = await startServer({ ...quiet, PORT: String(first.port) });
      expect(await samePort.exited).toBe(1);
      expect(samePort.lines.map((l) => l.msg)).toContain(`port ${first.port} is in use by another server: stop that one, or set PORT to a free port`);
      expect((await fetch(`http://127.0.0.1:${first.port}/api/health`, { headers: { connection: 'close' } })).status).toBe(200);
    } finally {
      first.child.kill('SIGTERM');
    }
    expect(await first.exited).toBe(0);
  }, 120_000);
});

describe('npm start with RESTORE_FROM', () => {
  it('stops with a sentence when the backup cannot be read, before any database is made', async () => {
    const s = await startServer({ SEED_DEMO: 'false', RUN_SCHEDULER: 'false', RESTORE_FROM: '/nonexistent/townbeat-backup.tar.gz' });
    expect(await s.exited).toBe(1);
    expect(s.lines.map((l) => l.msg)).toContain('RESTORE_FROM: cannot read /nonexistent/townbeat-backup.tar.gz (ENOENT)');
  }, 60_000);
});

// Only PostgreSQL can be shared between processes; the embedded database belongs to one.
describe.skipIf(!process.env.TEST_DATABASE_URL)('npm start on PostgreSQL with WEB_CONCURRENCY=2 (needs TEST_DATABASE_URL: PGlite cannot be shared)', () => {
  let database: Database | undefined;
  afterAll(async () => {
    await database?.close();
  });

  it('runs two workers on one port with one scheduler, restarts a dead worker and stops cleanly', async () => {
    database = await openTestDatabase();
    const s = await startServer({ DATABASE_URL: database.url!, WEB_CONCURRENCY: '2', SEED_DEMO: 'true', RUN_SCHEDULER: 'true' });
    try {
      await s.waitFor('two workers to serve', (lines) => serving(lines).length >= 2);
      const workers = serving(s.lines);
      const pids = workers.map((l) => l.pid);
      expect(new Set(pids).size).toBe(2);
      expect(pids).not.toContain(s.child.pid);
      expect(workers.filter((l) => l.scheduler === true)).toHaveLength(1);
      const leader = workers.find((l) => l.scheduler === true)!;
      const follower = workers.find((l) => l.scheduler === false)!;
      expect(leader.worker).toBe('leader');
      // The demo was seeded once, by the leader.
      const seeders = new Set(s.lines.filter((l) => l.msg === 'demo source loaded' || l.msg === 'demo content loaded').map((l) => l.pid));
      expect([...seeders]).toEqual([leader.pid]);

      // Round-robin over one port: both workers answer, only one has a running scheduler.
      const statuses = [];
      for (let i = 0; i < 8; i++) statuses.push(await schedulerStatus(s.port));
      expect(new Set(statuses)).toEqual(new Set(['running', 'off']));

      // A worker that dies is replaced, as a follower: still one scheduler.
      process.kill(follower.pid, 'SIGKILL');
      await s.waitFor('a replacement worker', (lines) => serving(lines).length >= 3);
      const replacement = serving(s.lines)[2]!;
      expect(replacement.pid).not.toBe(follower.pid);
      expect(replacement.scheduler).toBe(false);
      expect(serving(s.lines).filter((l) => l.scheduler === true)).toHaveLength(1);
      expect(await schedulerStatus(s.port)).toMatch(/running|off/);

      s.child.kill('SIGTERM');
      expect(await s.exited).toBe(0);
      expect(s.lines.filter((l) => l.msg === 'shutting down').map((l) => l.pid).sort()).toEqual([leader.pid, replacement.pid].sort());
      expect(alive(leader.pid) || alive(replacement.pid)).toBe(false);
    } finally {
      if (s.child.exitCode === null) s.child.kill('SIGKILL');
    }
  }, 180_000);

  it('stops at once when asked while a worker is still starting', async () => {
    database ??= await openTestDatabase();
    const s = await startServer({ DATABASE_URL: database.url!, WEB_CONCURRENCY: '2', SEED_DEMO: 'false', RUN_SCHEDULER: 'false' });
    try {
      // The primary forks the follower once the leader listens; it takes about a second to load.
      await s.waitFor('the leader to listen', (lines) => lines.some((l) => l.msg === 'worker listening'));
      const asked = Date.now();
      s.child.kill('SIGTERM');
      expect(await s.exited).toBe(0);
      expect(Date.now() - asked).toBeLessThan(10_000);
      expect(s.lines.some((l) => l.msg.includes('still running after the stop timeout'))).toBe(false);
    } finally {
      if (s.child.exitCode === null) s.child.kill('SIGKILL');
    }
  }, 120_000);

  it('exits with an error, instead of restarting forever, when the first worker cannot start', async () => {
    const missing = new URL(process.env.TEST_DATABASE_URL!);
    missing.pathname = '/townbeat_no_such_database';
    const s = await startServer({ DATABASE_URL: missing.toString(), WEB_CONCURRENCY: '2', SEED_DEMO: 'false' });
    expect(await s.exited).toBe(1);
    expect(s.lines.some((l) => l.msg.includes('the first worker exited before it could serve'))).toBe(true);
    expect(serving(s.lines)).toHaveLength(0);
  }, 120_000);
});
