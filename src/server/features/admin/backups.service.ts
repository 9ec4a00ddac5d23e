import { createReadStream, createWriteStream, type ReadStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat, statfs } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { BackupsResponse, StoredBackup } from '../../../contract/admin.ts';
import type { Clock } from '../../clock.ts';
import { conflict } from '../../errors.ts';

/**
 * Scheduled backups of the embedded database: every `everyHours` a backup (the same file the
 * Security tab downloads) is written into `dir`, and those older than `keepDays` are removed, the
 * newest always kept. A city that runs unattended keeps copies without anyone downloading them;
 * a DATA_DIR left unreadable (two processes, a full disk) starts again from the newest with
 * RESTORE_FROM. Only files named as this service names them are ever listed, served or removed.
 */

const NAME = /^townbeat-backup-(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2})Z\.tar\.gz$/;
const PARTIAL = '.partial';
/** A new server's first backup waits this long, so that it does not slow the start (demo seeding). */
export const FIRST_BACKUP_DELAY_MS = 5 * 60_000;
/** Room left on the disk besides a backup's size, for the database (usually on the same disk) to grow. */
export const BACKUP_DISK_RESERVE = 256 * 1024 * 1024;

const MAX_TIMER_MS = 2 ** 31 - 1;
const mb = (bytes: number) => `${Math.round(bytes / 1_000_000).toLocaleString('en-US')} MB`;

/**
 * Why a backup must not be written now, or null: a backup that would leave less than
 * BACKUP_DISK_RESERVE free could fill the disk the database writes to, losing more than it keeps.
 * `expected` is the size of the newest backup (the next is about as large).
 */
export function diskRefusal(freeBytes: number, expected: number): string | null {
  const needed = expected + BACKUP_DISK_RESERVE;
  return freeBytes < needed ? `not written: ${mb(freeBytes)} free on its disk, and a backup (about ${mb(expected)}) must leave ${mb(BACKUP_DISK_RESERVE)} for the database` : null;
}

const freeBytesOf = async (dir: string) => {
  const s = await statfs(dir);
  return s.bavail * s.bsize;
};

/** The file name of a backup taken at `at` (UTC, to the second; sorts by time). */
export function backupName(at: Date): string {
  return `townbeat-backup-${at.toISOString().slice(0, 19).replace(/:/g, '-')}Z.tar.gz`;
}

/** When a backup of that name was taken, or null for any other name. */
export function backupTime(name: string): Date | null {
  const m = NAME.exec(name);
  return m ? new Date(`${m[1]}T${m[2]}:${m[3]}:${m[4]}Z`) : null;
}

/** The backups to remove: older than `keepDays` before `now`, never the newest. */
export function expiredBackups(names: readonly string[], now: Date, keepDays: number): string[] {
  const dated = names.flatMap((name) => {
    const at = backupTime(name);
    return at ? [{ name, at }] : [];
  });
  if (dated.length === 0) return [];
  const newest = dated.reduce((a, b) => (b.at > a.at ? b : a));
  const cutoff = now.getTime() - keepDays * 86_400_000;
  return dated.filter((b) => b !== newest && b.at.getTime() < cutoff).map((b) => b.name);
}

export interface BackupsDeps {
  /** The embedded database's backup (Database.backup). */
  backup: () => Promise<Readable>;
  dir: string;
  /** 0: no schedule (a backup is still taken on request). */
  everyHours: number;
  keepDays: number;
  clock: Clock;
  log: { info: (o: object, m: string) => void; error: (o: object, m: string) => void };
  /** Where a failed scheduled backup is recorded for admins (the error log). */
  recordError: (message: string) => Promise<void>;
  /** Free bytes on the disk of `dir` (statfs; tests give their own). */
  freeBytes?: (dir: string) => Promise<number>;
}

export function createBackupsService(deps: BackupsDeps) {
  const { dir, everyHours, keepDays, clock, log } = deps;
  let timer: NodeJS.Timeout | null = null;
  let next: Date | null = null;
  let running: Promise<StoredBackup> | null = null;
  let lastError: string | null = null;
  let stopped = false;

  async function list(): Promise<StoredBackup[]> {
    let names: string[];
    try {
      names = await readdir(dir);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw err;
    }
    const out: StoredBackup[] = [];
    for (const name of names) {
      const at = backupTime(name);
      if (!at) continue;
      const s = await stat(join(dir, name)).catch(() => null);
      if (s?.isFile()) out.push({ name, at: at.toISOString(), bytes: s.size });
    }
    return out.sort((a, b) => b.at.localeCompare(a.at));
  }

  /** Removes expired backups, and copies a crash or a stop left half-written (none is being written now). */
  async function prune(now: Date) {
    const names = await readdir(dir);
    const gone = [...expiredBackups(names, now, keepDays), ...names.filter((n) => n.endsWith(PARTIAL) && backupTime(n.slice(0, -PARTIAL.length)))];
    for (const name of gone) await rm(join(dir, name), { force: true });
    return gone.filter((n) => !n.endsWith(PARTIAL));
  }

  async function write(): Promise<StoredBackup> {
    const at = clock.now();
    const name = backupName(at);
    await mkdir(dir, { recursive: true });
    const partial = join(dir, name + PARTIAL);
    const refusal = diskRefusal(await (deps.freeBytes ?? freeBytesOf)(dir), (await list())[0]?.bytes ?? 0);
    if (refusal) throw conflict(`Backup ${refusal}`);
    try {
      // Written beside its final name and renamed once whole: a listed backup is never half a file.
      await pipeline(await deps.backup(), createWriteStream(partial, { mode: 0o600 }));
      await rename(partial, join(dir, name));
    } catch (err) {
      await rm(partial, { force: true });
      throw err;
    }
    const { size } = await stat(join(dir, name));
    const removed = await prune(at);
    log.info({ backup: name, bytes: size, removed }, 'backup written');
    return { name, at: backupTime(name)!.toISOString(), bytes: size };
  }

  /** Takes a backup now; one already being written is shared, not taken twice. */
  function take(): Promise<StoredBackup> {
    running ??= write().finally(() => {
      running = null;
    });
    return running;
  }

  function schedule(inMs: number) {
    if (stopped) return;
    next = new Date(clock.now().getTime() + inMs);
    // setTimeout fires at once past 2^31 - 1 ms (24.8 days); BACKUP_EVERY_HOURS stops at 24 days.
    timer = setTimeout(() => void scheduled(), Math.min(inMs, MAX_TIMER_MS));
    timer.unref();
  }

  async function scheduled() {
    try {
      await take();
      lastError = null;
    } catch (err) {
      lastError = `${clock.now().toISOString()}: ${(err as Error).message}`;
      log.error({ err, dir }, 'scheduled backup failed');
      await deps.recordError(`Scheduled backup into ${dir} failed: ${(err as Error).message}`).catch(() => undefined);
    }
    schedule(everyHours * 3600_000);
  }

  return {
    take,
    list,
    /** Starts the schedule: the next backup is due `everyHours` after the newest in `dir`. */
    async start() {
      if (everyHours <= 0 || timer) return;
      stopped = false;
      const newest = (await list())[0];
      schedule(newest ? Math.max(0, new Date(newest.at).getTime() + everyHours * 3600_000 - clock.now().getTime()) : FIRST_BACKUP_DELAY_MS);
    },
    /** Stops the schedule and waits for a backup being written (the database closes next). */
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
      next = null;
      await running?.catch(() => undefined);
    },
    async status(): Promise<BackupsResponse> {
      return { scheduled: everyHours > 0 && timer !== null, dir, everyHours, keepDays, next: next?.toISOString() ?? null, lastError, backups: await list() };
    },
    /** A stored backup to download, or null when there is none of that name. */
    async open(name: string): Promise<{ stream: ReadStream; bytes: number } | null> {
      if (!backupTime(name)) return null;
      const s = await stat(join(dir, name)).catch(() => null);
      if (!s?.isFile()) return null;
      return { stream: createReadStream(join(dir, name)), bytes: s.size };
    },
  };
}

export type BackupsService = ReturnType<typeof createBackupsService>;
