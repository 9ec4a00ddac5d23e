// Parsing of untrusted feeds runs here: in child processes with a heap limit and a wall-clock
// limit, so a pathological file (a recurrence that never ends, a parser that loops, a document
// that explodes in memory) costs one child process, never the server's event loop or heap.
//
// Why processes and not worker threads: a worker's `resourceLimits` is best-effort. Depending
// on the shape of the allocation, V8 aborts the whole process instead of the worker when the
// worker's heap limit is reached (nodejs/node#47224; seen here with a large regex replace).
// A child's `--max-old-space-size` can only ever take the child down.
//
// Children are pooled and reused (startup with tsx costs a few hundred ms; a parse costs what
// its input costs). A child that times out or dies is replaced by a fresh one on demand.
//
// A child gets almost none of the server's environment (see childEnv): the input is untrusted,
// so whatever a parser bug could be made to read or send must not include the session secret,
// the API keys or the database URL.

import { fork, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { SourceError } from '../ingestion.types.ts';
import type { ParseJobs } from './parse.worker.ts';

export type { ParseJobs };
export type ParseKind = keyof ParseJobs;

export interface SandboxOptions {
  /** Child module (TypeScript, run with tsx). Default: parse.worker.ts. */
  workerUrl?: URL;
  /** Wall-clock limit per parse, from when a child starts on it. */
  timeoutMs?: number;
  /** Heap limit of each child (V8 old generation), in MB. */
  maxOldGenerationSizeMb?: number;
  /** Number of children; default one per spare core, at most 2. */
  poolSize?: number;
  /** Jobs waiting for a child beyond this are refused. */
  maxQueue?: number;
  /** An idle child is stopped after this long. */
  idleMs?: number;
}

interface Task {
  kind: string;
  input: unknown;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
}

interface Slot {
  child: ChildProcess;
  ready: boolean;
  task: Task | null;
  timer: NodeJS.Timeout | null;
  idleTimer: NodeJS.Timeout | null;
  dead: boolean;
  /** The end of the child's stderr, to explain a crash. */
  stderr: string;
  /** A known cause of a crash, noted when its line went past on stderr. */
  reason: 'memory' | 'depth' | undefined;
}

type Reply = { ready: true } | { id: number; started: true } | { id: number; ok: true; value: unknown } | { id: number; ok: false; message: string };

const STARTUP_TIMEOUT_MS = 60_000;

/** tsx's loader by absolute URL, so children start whatever the working directory. */
const TSX = (() => {
  try {
    return pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  } catch {
    return 'tsx';
  }
})();

/**
 * The only variables a child inherits; parsing needs no configuration of the server's. TZ keeps
 * any local-time fallback of a parser (chrono, Date) the same as in the server; TMPDIR (TMP and
 * TEMP on Windows) is where tsx keeps its compile cache; TSX_* set up the loader as for the
 * server. Nothing else is needed: a child starts and parses with an empty environment.
 */
const CHILD_ENV = ['TZ', 'TMPDIR', 'TMP', 'TEMP', 'TSX_TSCONFIG_PATH', 'TSX_DISABLE_CACHE'] as const;

function childEnv(parent: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const key of CHILD_ENV) {
    const value = parent[key];
    if (value !== undefined) env[key] = value;
  }
  return env;
}

function seconds(ms: number) {
  const s = ms / 1000;
  return Number.isInteger(s) ? String(s) : String(Math.round(s * 10) / 10);
}

export interface Sandbox {
  run<K extends ParseKind>(kind: K, input: ParseJobs[K]['input']): Promise<ParseJobs[K]['output']>;
  /** Stops every child (tests, shutdown). Queued jobs are refused. */
  close(): Promise<void>;
  readonly stats: { started: number; timedOut: number; crashed: number };
}

export function createSandbox(opts: SandboxOptions = {}): Sandbox {
  const workerPath = fileURLToPath(opts.workerUrl ?? new URL('./parse.worker.ts', import.meta.url));
  const timeoutMs = opts.timeoutMs ?? 30_000;
  const heapMb = opts.maxOldGenerationSizeMb ?? 256;
  const poolSize = Math.max(1, opts.poolSize ?? Math.min(2, Math.max(1, availableParallelism() - 1)));
  const maxQueue = opts.maxQueue ?? 1000;
  const idleMs = opts.idleMs ?? 60_000;

  const slots: Slot[] = [];
  const queue: Task[] = [];
  let nextId = 1;
  let closed = false;
  const stats = { started: 0, timedOut: 0, crashed: 0 };

  function spawn(): Slot {
    const child = fork(workerPath, [], {
      execArgv: ['--import', TSX, `--max-old-space-size=${heapMb}`, '--max-semi-space-size=16', '--stack-size=2048'],
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      env: childEnv(process.env),
    });
    stats.started++;
    const slot: Slot = { child, ready: false, task: null, timer: null, idleTimer: null, dead: false, stderr: '', reason: undefined };
    const startup = setTimeout(() => kill(slot, new SourceError('the parser did not start')), STARTUP_TIMEOUT_MS);
    startup.unref();
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => {
      // The reason comes first and V8's native stack after it, which can be longer than the tail
      // kept: the reason is noted as it passes (across chunk boundaries too).
      const seen = slot.stderr.slice(-200) + chunk;
      slot.reason ??= KNOWN_REASONS.find((r) => r.pattern.test(seen))?.reason;
      slot.stderr = (slot.stderr + chunk).slice(-4000);
    });
    child.on('message', (msg: Reply) => {
      if ('ready' in msg) {
        clearTimeout(startup);
        slot.ready = true;
        pump();
        return;
      }
      const task = slot.task;
      if (!task) return;
      if ('started' in msg) {
        // The parser is loaded and starts on the input: the time limit starts now.
        if (slot.timer) clearTimeout(slot.timer);
        slot.timer = setTimeout(() => {
          stats.timedOut++;
          kill(slot, new SourceError(`parsing took longer than ${seconds(timeoutMs)} s`));
        }, timeoutMs);
        return;
      }
      if (slot.timer) clearTimeout(slot.timer);
      slot.timer = null;
      slot.task = null;
      if (msg.ok) task.resolve(msg.value);
      else task.reject(new SourceError(msg.message));
      pump();
    });
    child.on('error', (err: Error) => {
      clearTimeout(startup);
      stats.crashed++;
      kill(slot, new SourceError(`the parser failed: ${err.message}`));
    });
    child.on('exit', () => {
      clearTimeout(startup);
      slot.ready = false;
    });
    // 'close' comes after 'exit' once stderr is drained: the reason for a crash (V8's "heap out
    // of memory", say) is read in full, however busy the machine.
    child.on('close', (code, signal) => {
      if (slot.dead) return;
      stats.crashed++;
      kill(slot, crashReason(slot, code, signal, heapMb));
    });
    slots.push(slot);
    return slot;
  }

  /** Removes a child, failing its job (if any) with the given reason. */
  function kill(slot: Slot, reason: SourceError) {
    if (slot.dead) return;
    slot.dead = true;
    if (slot.timer) clearTimeout(slot.timer);
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
    const i = slots.indexOf(slot);
    if (i >= 0) slots.splice(i, 1);
    const task = slot.task;
    slot.task = null;
    if (slot.child.exitCode === null && slot.child.signalCode === null) slot.child.kill('SIGKILL');
    if (task) task.reject(reason);
    else if (!slot.ready && queue.length > 0 && !slots.some((s) => !s.dead)) {
      // The child could not even start: fail what waits instead of retrying forever.
      for (const t of queue.splice(0)) t.reject(reason);
    }
    pump();
  }

  function dispatch(slot: Slot, task: Task) {
    slot.task = task;
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
    slot.idleTimer = null;
    slot.child.ref();
    slot.child.channel?.ref();
    // Until the child says it has started parsing, only a generous limit for loading the parser.
    slot.timer = setTimeout(() => kill(slot, new SourceError('the parser did not start')), STARTUP_TIMEOUT_MS + timeoutMs);
    slot.child.send({ id: nextId++, kind: task.kind, input: task.input }, (err) => {
      if (err) kill(slot, new SourceError(`could not hand the input to the parser: ${err.message}`));
    });
  }

  function pump() {
    if (closed) return;
    for (const slot of slots) {
      if (slot.dead || !slot.ready || slot.task) continue;
      const task = queue.shift();
      if (task) dispatch(slot, task);
      else idle(slot);
    }
    if (queue.length > 0) {
      const starting = slots.filter((s) => !s.ready).length;
      for (let n = Math.min(queue.length - starting, poolSize - slots.length); n > 0; n--) spawn();
    }
  }

  function idle(slot: Slot) {
    // An idle child does not keep the process alive, and goes away after a while.
    slot.child.unref();
    slot.child.channel?.unref();
    if (!slot.idleTimer) {
      slot.idleTimer = setTimeout(() => {
        if (!slot.task) kill(slot, new SourceError('idle'));
      }, idleMs);
      slot.idleTimer.unref();
    }
  }

  return {
    stats,
    run<K extends ParseKind>(kind: K, input: ParseJobs[K]['input']): Promise<ParseJobs[K]['output']> {
      if (closed) return Promise.reject(new SourceError('the parser is shut down'));
      if (queue.length >= maxQueue) return Promise.reject(new SourceError('the parser is busy; try again later'));
      return new Promise((resolve, reject) => {
        queue.push({ kind, input, resolve: resolve as (v: unknown) => void, reject });
        pump();
      });
    },
    async close() {
      closed = true;
      for (const t of queue.splice(0)) t.reject(new SourceError('the parser is shut down'));
      await Promise.all(
        slots.splice(0).map((slot) => {
          slot.dead = true;
          if (slot.timer) clearTimeout(slot.timer);
          if (slot.idleTimer) clearTimeout(slot.idleTimer);
          slot.task?.reject(new SourceError('the parser is shut down'));
          slot.task = null;
          if (slot.child.exitCode !== null || slot.child.signalCode !== null) return undefined;
          return new Promise<void>((resolve) => {
            slot.child.once('exit', () => resolve());
            slot.child.kill('SIGKILL');
          });
        }),
      );
    },
  };
}

const KNOWN_REASONS: { pattern: RegExp; reason: 'memory' | 'depth' }[] = [
  { pattern: /heap out of memory|Reached heap limit|Allocation failed/i, reason: 'memory' },
  { pattern: /Maximum call stack size exceeded/i, reason: 'depth' },
];

function crashReason(slot: Pick<Slot, 'stderr' | 'reason'>, code: number | null, signal: NodeJS.Signals | null, heapMb: number): SourceError {
  const reason = slot.reason ?? KNOWN_REASONS.find((r) => r.pattern.test(slot.stderr))?.reason;
  if (reason === 'memory') return new SourceError(`parsing needed more than ${heapMb} MB of memory`);
  if (reason === 'depth') return new SourceError('parsing nested too deeply');
  const last = slot.stderr
    .trim()
    .split('\n')
    .filter((l) => l.trim())
    .at(-1);
  return new SourceError(`the parser stopped unexpectedly (${signal ?? `exit code ${code}`})${last ? `: ${last.slice(0, 200)}` : ''}`);
}

let shared: Sandbox | null = null;

/** The process-wide sandbox the connectors use. */
export function parseInSandbox<K extends ParseKind>(kind: K, input: ParseJobs[K]['input']): Promise<ParseJobs[K]['output']> {
  shared ??= createSandbox();
  return shared.run(kind, input);
}

/** Stops the shared sandbox's children (graceful shutdown, tests). */
export async function closeSharedSandbox(): Promise<void> {
  const s = shared;
  shared = null;
  await s?.close();
}
