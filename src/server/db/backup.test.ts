import { createWriteStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, queryRows } from './client.ts';

// A backup of the embedded database (what the admin's Security tab downloads) starts a server
// on all it held, and RESTORE_FROM never writes over a database.
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'townbeat-backup-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('backups of the embedded database', () => {
  it('restores into an empty DATA_DIR everything the database held, and refuses one that holds a database', { timeout: 90_000 }, async () => {
    const first = await openDatabase({ dataDir: join(dir, 'live') });
    const file = join(dir, 'townbeat-backup.tar.gz');
    try {
      await first.db.execute(sql`insert into users (email, first_name) values ('ada@example.test', 'Ada')`);
      const tarball = await first.backup!();
      // The database serves while the backup is still being compressed and read; what is written
      // then is not in it.
      await first.db.execute(sql`insert into users (email, first_name) values ('later@example.test', 'Later')`);
      await pipeline(tarball, createWriteStream(file));
      expect([...readFileSync(file).subarray(0, 2)]).toEqual([0x1f, 0x8b]);
    } finally {
      await first.close();
    }

    const restored = await openDatabase({ dataDir: join(dir, 'restored'), restoreFrom: file });
    try {
      expect(await queryRows(restored.db, sql`select email, first_name from users order by email`)).toEqual([{ email: 'ada@example.test', first_name: 'Ada' }]);
    } finally {
      await restored.close();
    }
    // Started again with RESTORE_FROM still set: the restored database is kept, not replaced.
    await expect(openDatabase({ dataDir: join(dir, 'restored'), restoreFrom: file })).rejects.toThrow(/already holds a database: unset RESTORE_FROM to start on it/);
    const again = await openDatabase({ dataDir: join(dir, 'restored') });
    try {
      expect(await queryRows(again.db, sql`select count(*)::int as n from users`)).toEqual([{ n: 1 }]);
    } finally {
      await again.close();
    }
  });
});
