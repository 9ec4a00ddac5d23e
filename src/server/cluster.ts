import cluster, { type Worker } from 'node:cluster';
import { hostname } from 'node:os';
import type { Env } from './env.ts';

/** How many processes serve, and the one line that explains a request turned down. */
export interface WorkerPlan {
  workers: number;
  note: string | null;
}

/**
 * WEB_CONCURRENCY workers (default: every core in production, else one). The embedded
 * database lives in one process's memory over DATA_DIR, so without DATABASE_URL one process serves.
 */
export function planWorkers(env: Pick<Env, 'DATABASE_URL' | 'WEB_CONCURRENCY' | 'NODE_ENV'>, cores: number): WorkerPlan {
  const wanted = env.WEB_CONCURRENCY ?? (env.NODE_ENV === 'production' ? Math.max(1, cores) : 1);
  if (env.DATABASE_URL) return { workers: wanted, note: null };
  const note =
    wanted > 1
      ? `running one process instead of ${wanted}: the embedded database (PGlite in DATA_DIR) can be opened by one process only; set DATABASE_URL to a PostgreSQL server to run several workers`
      : null;
  return { workers: 1, note };
}

/** The first worker runs the scheduler and the demo seeding; the others only serve. */
export type WorkerRole = 'leader' | 'follower';

/** The environment a worker of the given role starts with (on top of the primary's). */
export function workerEnv(role: WorkerRole, env: Pick<Env, 'RUN_SCHEDULER' | 'SEED_DEMO'>): Record<string, string> {
  const leader = role === 'leader';
  return {
    TOWNBEAT_WORKER_ROLE: role,
    RUN_SCHEDULER: String(leader && env.RUN_SCHEDULER),
    SEED_DEMO: String(leader && env.SEED_DEMO),
  };
}

/** Delay before restarting a worker that died: doubles while workers die young, up to 30 s. */
export function restartDelayMs(livedMs: number, previousDelayMs: number): number {
  if (livedMs >= 10_000) return 1000;
  return Math.min(30_000, Math.max(1000, previousDelayMs * 2));
}

const STOP_MESSAGE = 'townbeat:stop';

/**
 * In a worker, calls `stop` when the primary asks the workers to stop. A message rather than a
 * signal: after Ctrl-C the terminal has already signalled every worker, and a second signal
 * would cut their graceful shutdown short.
 */
export function onStopRequest(stop: () => void) {
  if (!cluster.isWorker) return;
  process.on('message', (message) => {
    if (message === STOP_MESSAGE) stop();
  });
}

/** Log lines in the shape the workers' logger writes (pino JSON), so one parser reads both. */
export function log(level: 'info' | 'warn' | 'error', msg: string, fields: object = {}) {
  const n = { info: 30, warn: 40, error: 50 }[level];
  const line = JSON.stringify({ level: n, time: Date.now(), pid: process.pid, hostname: hostname(), ...fields, msg });
  (level === 'info' ? process.stdout : process.stderr).write(`${line}\n`);
}

/**
 * The primary of `npm start` on PostgreSQL: forks the leader first (it migrates the database),
 * the followers once it listens, restarts workers that die, and stops them all on SIGTERM/SIGINT.
 * The workers share the port; the primary hands connections round-robin. Resolves once all stopped.
 */
export function runPrimary(opts: { workers: number; env: Pick<Env, 'RUN_SCHEDULER' | 'SEED_DEMO'>; stopTimeoutMs?: number }): Promise<number> {
  cluster.schedulingPolicy = cluster.SCHED_RR;
  const say = (level: 'info' | 'warn' | 'error', msg: string, fields: object = {}) => log(level, msg, { role: 'primary', ...fields });
  const roles = new Map<Worker, { role: WorkerRole; startedAt: number }>();
  // Workers that serve: only they have the graceful shutdown that the stop message starts.
  const listening = new WeakSet<Worker>();
  const delays: Record<WorkerRole, number> = { leader: 0, follower: 0 };
  let leaderListened = false;
  let stopping = false;

  function fork(role: WorkerRole) {
    const worker = cluster.fork(workerEnv(role, opts.env));
    roles.set(worker, { role, startedAt: Date.now() });
    return worker;
  }

  return new Promise((resolve) => {
    function stop(signal: NodeJS.Signals, exitCode: number) {
      if (stopping) return;
      stopping = true;
      say('info', 'stopping the workers', { signal });
      for (const w of roles.keys()) {
        if (listening.has(w) && w.isConnected()) w.send(STOP_MESSAGE);
        // One still starting has nothing to finish, and would not hear the message: it waited
        // for the stop timeout (15 s) before.
        else w.process.kill('SIGTERM');
      }
      const timer = setTimeout(() => {
        say('warn', 'workers still running after the stop timeout: killing them');
        for (const w of roles.keys()) w.process.kill('SIGKILL');
      }, opts.stopTimeoutMs ?? 15_000);
      timer.unref();
      const done = () => {
        if (roles.size > 0) return;
        clearTimeout(timer);
        process.off('SIGTERM', onSignal);
        process.off('SIGINT', onSignal);
        resolve(exitCode);
      };
      cluster.on('exit', done);
      done();
    }
    const onSignal = (signal: NodeJS.Signals) => stop(signal, 0);
    process.on('SIGTERM', onSignal);
    process.on('SIGINT', onSignal);

    cluster.on('listening', (worker) => {
      listening.add(worker);
      const role = roles.get(worker)?.role;
      say('info', 'worker listening', { worker: worker.process.pid, workerRole: role });
      if (role === 'leader' && !leaderListened) {
        leaderListened = true;
        for (let i = 1; i < opts.workers; i++) fork('follower');
      }
    });
    cluster.on('exit', (worker, code, signal) => {
      const info = roles.get(worker);
      roles.delete(worker);
      if (stopping || !info) return;
      // A leader that dies before it ever listened means a bad configuration: fail, do not loop.
      if (info.role === 'leader' && !leaderListened) {
        say('error', 'the first worker exited before it could serve; stopping', { worker: worker.process.pid, code, signal });
        stop('SIGTERM', 1);
        return;
      }
      const delay = restartDelayMs(Date.now() - info.startedAt, delays[info.role]);
      delays[info.role] = delay;
      say('warn', `worker exited; restarting it in ${delay} ms`, { worker: worker.process.pid, workerRole: info.role, code, signal });
      setTimeout(() => {
        if (!stopping) fork(info.role);
      }, delay);
    });

    say('info', `starting ${opts.workers} workers`, { workers: opts.workers });
    fork('leader');
  });
}
