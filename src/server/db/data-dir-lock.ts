import { readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { StartupError } from '../errors.ts';

// One process at a time on the embedded database's directory. PGlite takes no lock of its own:
// two processes that open one directory both write to it, and it can end up unreadable
// (`RuntimeError: Aborted()` at every later start, the events and accounts in it lost). It takes
// nothing unusual: a second `npm start` while one runs opens the database before its port turns
// out to be taken. So a lock file beside `pgdata` names the process that has the database open:
// another opener is refused while that process lives, and a lock left behind by a process that is
// gone (a crash, kill -9, a restarted container or machine) is taken over.

/** The lock file in DATA_DIR, beside the database's own directory. */
export const LOCK_FILE = 'pgdata.lock';

/** Who holds the lock: a process id, and on Linux when that process started, so a reused id is not taken for it. */
export interface LockOwner {
  pid: number;
  /** The process's start in clock ticks since boot (/proc/<pid>/stat), or null where there is no /proc. */
  started: string | null;
  /** The boot the process belongs to (/proc/sys/kernel/random/boot_id), or null. */
  boot: string | null;
}

export class DataDirInUseError extends StartupError {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(
      `The embedded database in ${dataDir} is in use by another Townbeat process (pid ${pid}). ` +
        'Only one process may open it: stop that one first, or give this one another DATA_DIR. ' +
        `If no such process is running, delete ${join(dataDir, LOCK_FILE)}.`,
    );
    this.name = 'DataDirInUseError';
  }
}

const readOrNull = (path: string) => {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return null;
  }
};

/** When process `pid` started (field 22 of /proc/<pid>/stat, after the parenthesised name), or null. */
export function processStart(pid: number): string | null {
  const stat = readOrNull(`/proc/${pid}/stat`);
  if (!stat) return null;
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
}

/** This process, as a lock names it. */
export function currentOwner(): LockOwner {
  return { pid: process.pid, started: processStart(process.pid), boot: readOrNull('/proc/sys/kernel/random/boot_id') };
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists, under another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether the process a lock names still runs: alive, and (where /proc tells) the same boot and the same start. */
export function ownerRuns(owner: LockOwner): boolean {
  const here = currentOwner();
  if (owner.boot && here.boot && owner.boot !== here.boot) return false;
  if (!isAlive(owner.pid)) return false;
  const started = processStart(owner.pid);
  return !(owner.started && started && owner.started !== started);
}

function parseOwner(text: string | null): LockOwner | null {
  if (!text) return null;
  try {
    const o = JSON.parse(text) as Partial<LockOwner>;
    if (!Number.isInteger(o.pid) || (o.pid as number) <= 0) return null;
    return { pid: o.pid as number, started: typeof o.started === 'string' ? o.started : null, boot: typeof o.boot === 'string' ? o.boot : null };
  } catch {
    return null;
  }
}

/** Directories this process holds: a second open of one of them here would corrupt it as surely. */
const held = new Set<string>();

/**
 * Takes the lock of the embedded database in `dataDir` for this process, or throws
 * DataDirInUseError naming the process that holds it. Returns the release, which removes the file
 * if it is still this process's; it also runs when the process exits.
 */
export function lockDataDir(dataDir: string): () => void {
  const path = join(dataDir, LOCK_FILE);
  if (held.has(path)) throw new DataDirInUseError(dataDir, process.pid);
  const me = currentOwner();
  const text = JSON.stringify(me);
  for (let attempt = 0; ; attempt++) {
    try {
      // 'wx' fails when the file exists: of two processes starting together, one wins.
      writeFileSync(path, `${text}\n`, { flag: 'wx' });
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const owner = parseOwner(readOrNull(path));
      // An unreadable or empty file is what a crash between creating and writing it leaves.
      if (owner && ownerRuns(owner) && owner.pid !== process.pid) throw new DataDirInUseError(dataDir, owner.pid);
      if (attempt > 0) throw new DataDirInUseError(dataDir, owner?.pid ?? 0);
      try {
        unlinkSync(path);
      } catch {
        // Another process took it over first; the next attempt finds its lock.
      }
    }
  }
  held.add(path);
  const release = () => {
    if (!held.delete(path)) return;
    process.off('exit', release);
    if (readOrNull(path) === text) {
      try {
        unlinkSync(path);
      } catch {
        // Already gone.
      }
    }
  };
  process.on('exit', release);
  return release;
}
