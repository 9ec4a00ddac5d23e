import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createManualClock } from '../../clock.ts';
import { openDatabaseFromDump, queryRows, type Database } from '../../db/client.ts';
import { openTestDatabase } from '../../test/test-db.ts';
import { BACKUP_DISK_RESERVE, backupName, backupTime, createBackupsService, diskRefusal, expiredBackups, FIRST_BACKUP_DELAY_MS, type BackupsDeps } from './backups.service.ts';

const HOUR = 3600_000;
const DAY = 24 * HOUR;
const silent = { info: () => undefined, error: () => undefined };

describe('backup names and expiry', () => {
  it('names a backup by its UTC time, to the second, and reads the time back from no other name', () => {
    const at = new Date('2026-11-27T21:05:09.731Z');
    expect(backupName(at)).toBe('townbeat-backup-2026-11-27T21-05-09Z.tar.gz');
    expect(backupTime(backupName(at))?.toISOString()).toBe('2026-11-27T21:05:09.000Z');
    for (const other of ['townbeat-backup-2026-11-27.tar.gz', 'notes.txt', 'townbeat-backup-2026-11-27T21-05-09Z.tar.gz.partial', '../townbeat-backup-2026-11-27T21-05-09Z.tar.gz']) expect(backupTime(other), other).toBeNull();
  });

  it('expires backups older than the days kept, never the newest, and nothing it did not name', () => {
    const now = new Date('2026-11-27T12:00:00Z');
    const ago = (days: number) => backupName(new Date(now.getTime() - days * DAY));
    const names = [ago(0.5), ago(6.9), ago(7.1), ago(30), 'keep-me.tar.gz'];
    expect(expiredBackups(names, now, 7)).toEqual([ago(7.1), ago(30)]);
    // A server stopped for a month keeps its last backup until a newer one is written.
    expect(expiredBackups([ago(30), ago(40)], now, 7)).toEqual([ago(40)]);
    expect(expiredBackups([], now, 7)).toEqual([]);
  });
});

describe('room on the disk', () => {
  it('refuses a backup that would leave the database less than its reserve', () => {
    const backup = 240_000_000;
    expect(diskRefusal(backup + BACKUP_DISK_RESERVE, backup)).toBeNull();
    expect(diskRefusal(backup + BACKUP_DISK_RESERVE - 1, backup)).toBe('not written: 508 MB free on its disk, and a backup (about 240 MB) must leave 268 MB for the database');
    // The first backup, with none to go by: the reserve alone.
    expect(diskRefusal(BACKUP_DISK_RESERVE - 1, 0)).toMatch(/^not written: 268 MB free/);
  });
});

describe('backups of the embedded database', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(async () => database?.close());

  const service = (over: Partial<BackupsDeps> & { dir: string }) => {
    const errors: string[] = [];
    const clock = createManualClock('2026-11-27T12:00:00Z');
    const svc = createBackupsService({ backup: () => database.backup!(), everyHours: 24, keepDays: 7, clock, log: silent, recordError: async (m) => void errors.push(m), ...over });
    return { svc, clock, errors };
  };

  // Reason: on PostgreSQL there is no embedded database to back up (pg_dump backs it up).
  it.skipIf(process.env.TEST_DATABASE_URL)('writes a whole backup that a server can start from, and removes the expired ones only', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'townbeat-backups-'));
    const { svc, clock } = service({ dir });
    // Left from before: an expired backup, a recent one, a half-written one, and a file of the admin's.
    const expired = backupName(new Date(clock.now().getTime() - 8 * DAY));
    const recent = backupName(new Date(clock.now().getTime() - 2 * DAY));
    for (const name of [expired, recent, `${recent}.partial`, 'my-notes.txt']) writeFileSync(join(dir, name), 'x');

    await database.db.execute(sql`insert into sources (name, connector, source_type) values ('Kept in the backup', 'ical', 'ical')`);
    const taken = await svc.take();
    expect(taken).toMatchObject({ name: 'townbeat-backup-2026-11-27T12-00-00Z.tar.gz', at: '2026-11-27T12:00:00.000Z' });
    expect(readdirSync(dir).sort()).toEqual([recent, taken.name, 'my-notes.txt'].sort());
    expect((await svc.list()).map((b) => b.name)).toEqual([taken.name, recent]);
    const bytes = readFileSync(join(dir, taken.name));
    expect(taken.bytes).toBe(bytes.length);
    expect([bytes[0], bytes[1]]).toEqual([0x1f, 0x8b]);
    const copy = await openDatabaseFromDump(new Blob([bytes], { type: 'application/gzip' }));
    try {
      expect(await queryRows(copy.db, sql`select name from sources where name = 'Kept in the backup'`)).toEqual([{ name: 'Kept in the backup' }]);
    } finally {
      await copy.close();
    }
    // Served by its name only.
    expect(await svc.open('my-notes.txt')).toBeNull();
    const served = await svc.open(taken.name);
    expect(served?.bytes).toBe(bytes.length);
    served?.stream.destroy();
  });

  it('leaves nothing behind when a backup fails, and a scheduled failure is told to admins until one succeeds', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'townbeat-backups-'));
    let fail = true;
    const broken = () => Readable.from((async function* () {
      yield Buffer.from('half a backup');
      throw new Error('disk full');
    })());
    const { svc, clock, errors } = service({ dir, backup: async () => (fail ? broken() : Readable.from([Buffer.from('whole')])) });
    await expect(svc.take()).rejects.toThrow('disk full');
    expect(readdirSync(dir)).toEqual([]);

    // A backup a day and more ago: the next one is due at once when the schedule starts.
    writeFileSync(join(dir, backupName(new Date(clock.now().getTime() - 25 * HOUR))), 'x');
    await svc.start();
    await expect.poll(() => errors.length).toBe(1);
    expect(errors[0]).toBe(`Scheduled backup into ${dir} failed: disk full`);
    const status = await svc.status();
    expect(status).toMatchObject({ scheduled: true, dir, everyHours: 24, keepDays: 7, lastError: '2026-11-27T12:00:00.000Z: disk full' });
    // The next attempt is a whole interval later.
    expect(status.next).toBe('2026-11-28T12:00:00.000Z');
    await svc.stop();
    expect((await svc.status()).scheduled).toBe(false);

    fail = false;
    await svc.start();
    await expect.poll(async () => (await svc.list()).length).toBe(2);
    expect((await svc.status()).lastError).toBeNull();
    await svc.stop();
  });

  it('waits a few minutes before a new server’s first backup, and not at all with the schedule off', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'townbeat-backups-'));
    const { svc, clock } = service({ dir });
    await svc.start();
    expect((await svc.status()).next).toBe(new Date(clock.now().getTime() + FIRST_BACKUP_DELAY_MS).toISOString());
    await svc.stop();
    const off = service({ dir, everyHours: 0 }).svc;
    await off.start();
    expect(await off.status()).toMatchObject({ scheduled: false, next: null, backups: [] });
  });

  it('writes nothing when the disk is nearly full, and says so as a conflict', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'townbeat-backups-'));
    let written = 0;
    const { svc } = service({ dir, freeBytes: async () => 100_000_000, backup: async () => (written++, Readable.from([Buffer.from('x')])) });
    await expect(svc.take()).rejects.toMatchObject({ status: 409, message: 'Backup not written: 100 MB free on its disk, and a backup (about 0 MB) must leave 268 MB for the database' });
    expect(written).toBe(0);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('shares a backup being written with a second request instead of taking two', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'townbeat-backups-'));
    let taken = 0;
    const { svc } = service({ dir, backup: async () => (taken++, Readable.from([Buffer.from('one')])) });
    const [a, b] = await Promise.all([svc.take(), svc.take()]);
    expect(a).toEqual(b);
    expect(taken).toBe(1);
  });
});
