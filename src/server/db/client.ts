import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { constants as zlib, createGzip } from 'node:zlib';
import { PGlite } from '@electric-sql/pglite';
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { cube } from '@electric-sql/pglite/contrib/cube';
import { earthdistance } from '@electric-sql/pglite/contrib/earthdistance';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { SQL } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { StartupError } from '../errors.ts';
import { lockDataDir } from './data-dir-lock.ts';
import * as schema from './schema.ts';

export type Schema = typeof schema;
/** The one database type services and repositories see, whichever driver is underneath. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** The embedded instance, when there is one (job queues and LISTEN need it). */
  pglite?: PGlite;
  pool?: pg.Pool;
  /** The server's URL, when on PostgreSQL (the job queue opens its own small pool). */
  url?: string;
  /**
   * The embedded database whole, as a gzipped tarball of its data directory that `RESTORE_FROM`
   * (or `loadDataDir`) opens again; absent on PostgreSQL, which pg_dump backs up. It resolves
   * once the copy is taken (the database is free again) and compresses as the stream is read.
   */
  backup?(): Promise<Readable>;
  close(): Promise<void>;
}

const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));

export interface OpenOptions {
  /** A postgres:// URL; without it the embedded database is used. */
  url?: string;
  /** Directory of the embedded database; omitted means in memory. */
  dataDir?: string;
  /** A backup (`Database.backup`) to fill an empty `dataDir` from; refused when it already holds a database. */
  restoreFrom?: string;
  poolSize?: number;
}

/**
 * The embedded database's extensions and start parameters. Its shared buffers are 32 MB, not
 * PostgreSQL's 128 MB: PGlite sets them up at every start, 1.1 s of a warm `npm start` here with
 * 128 MB and 0.68 s with 32 MB, which hold the demo city many times over and 10,000 events with
 * their indexes (31 MB); pages past them come from the process's own file cache.
 */
const PGLITE_OPTIONS = {
  extensions: { pg_trgm, btree_gin, cube, earthdistance },
  startParams: [...PGlite.defaultStartParams, '-c', 'shared_buffers=32MB'],
};

/** Opens the database and applies every committed migration. */
export async function openDatabase(opts: OpenOptions): Promise<Database> {
  if (opts.url) {
    // No JIT: our queries are short, and a broad search's cost estimate crossed jit_above_cost,
    // spending 56 ms compiling for a 45 ms query (EXPLAIN ANALYZE over 100,000 events).
    // Connections are kept while idle (pg closes them after 10 s by default). A new server process
    // maps each page of PostgreSQL's shared buffers on first touch: a search reading 1,300 pages
    // took 47 ms in a fresh connection and 4.6 ms in the next query (this 2-core VM, no huge
    // pages), so every quiet spell made the next busy one pay again.
    const pool = new pg.Pool({ connectionString: opts.url, max: opts.poolSize ?? 10, idleTimeoutMillis: 0, options: '-c jit=off -c max_parallel_workers_per_gather=0' });
    // An idle connection the server drops (restart, failover) must not crash the process;
    // the pool replaces it on the next query.
    pool.on('error', (err) => console.warn(`database connection lost: ${err.message}`));
    const db = drizzlePg(pool, { schema });
    await migratePg(db, { migrationsFolder });
    return { db: db as unknown as Db, kind: 'postgres', pool, url: opts.url, close: () => pool.end() };
  }
  let dataDir: string | undefined;
  let unlock = () => {};
  if (opts.dataDir) {
    mkdirSync(opts.dataDir, { recursive: true });
    // Before PGlite touches the directory: a second process on it would leave it unreadable.
    unlock = lockDataDir(opts.dataDir);
    dataDir = `${opts.dataDir.replace(/\/$/, '')}/pgdata`;
  }
  let pglite: PGlite | undefined;
  try {
    pglite = await PGlite.create(dataDir, { ...PGLITE_OPTIONS, ...(opts.restoreFrom ? { loadDataDir: restoreSource(opts.restoreFrom, dataDir) } : {}) });
    const db = drizzlePglite(pglite, { schema });
    const open = pglite;
    await migratePglite(db, { migrationsFolder });
    return {
      db: db as unknown as Db,
      kind: 'pglite',
      pglite: open,
      backup: () => backupOf(open),
      close: async () => {
        try {
          await open.close();
        } finally {
          unlock();
        }
      },
    };
  } catch (err) {
    await pglite?.close().catch(() => undefined);
    unlock();
    throw err;
  }
}

/**
 * The backup to restore into `dataDir`, read whole. Only an empty directory is filled: restoring
 * over a database would replace everything in it.
 */
function restoreSource(file: string, dataDir: string | undefined): Blob {
  if (!dataDir) throw new StartupError('RESTORE_FROM needs a DATA_DIR to restore into');
  if (existsSync(dataDir) && readdirSync(dataDir).length > 0) {
    throw new StartupError(`RESTORE_FROM fills an empty DATA_DIR only, and ${dataDir} already holds a database: unset RESTORE_FROM to start on it, or move it aside (or give another DATA_DIR) to restore ${file}`);
  }
  try {
    const bytes = readFileSync(file);
    // Typed, so PGlite unpacks a gzipped backup at once instead of first trying it as a bare tar.
    return new Blob([bytes], { type: bytes[0] === 0x1f && bytes[1] === 0x8b ? 'application/gzip' : 'application/x-tar' });
  } catch (err) {
    throw new StartupError(`RESTORE_FROM: cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
}

/** Bytes of the tarball handed to the compressor at a time. */
const BACKUP_CHUNK = 1 << 20;

/**
 * A consistent copy of the embedded database: written out to its files first, then packed. The
 * database (and the event loop: PGlite reads its files synchronously) is held only while the
 * tarball is made, about 1.4 s at 100,000 events; PGlite's own gzip held it through compression
 * as well, over 20 s there. Compressing runs in zlib's thread pool as the caller reads, at level 1:
 * half the CPU of the default for a file 8% larger.
 */
async function backupOf(pglite: PGlite): Promise<Readable> {
  await pglite.exec('CHECKPOINT');
  const tarball = await pglite.dumpDataDir('none');
  async function* chunks() {
    for (let at = 0; at < tarball.size; at += BACKUP_CHUNK) yield new Uint8Array(await tarball.slice(at, at + BACKUP_CHUNK).arrayBuffer());
  }
  const gzip = createGzip({ level: zlib.Z_BEST_SPEED });
  const source = Readable.from(chunks());
  source.on('error', (err) => gzip.destroy(err));
  return source.pipe(gzip);
}

/** Opens an embedded database from a dump of an already migrated one (test start-up). */
export async function openDatabaseFromDump(dump: Blob): Promise<Database> {
  const pglite = await PGlite.create({ loadDataDir: dump, ...PGLITE_OPTIONS });
  const db = drizzlePglite(pglite, { schema });
  await migratePglite(db, { migrationsFolder });
  return { db: db as unknown as Db, kind: 'pglite', pglite, backup: () => backupOf(pglite), close: () => pglite.close() };
}

/** The rows of a raw statement: both drivers answer execute() with { rows }. */
export async function queryRows<T>(db: Db, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}
