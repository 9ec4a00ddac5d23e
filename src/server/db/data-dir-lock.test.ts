import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { openDatabase, queryRows } from './client.ts';
import { DataDirInUseError, LOCK_FILE, currentOwner, lockDataDir, processStart, type LockOwner } from './data-dir-lock.ts';

let dir: string;
const children: ChildProcess[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'townbeat-lock-'));
});
afterEach(() => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

const lockPath = () => join(dir, LOCK_FILE);
const writeLock = (owner: Partial<LockOwner> | string) => writeFileSync(lockPath(), typeof owner === 'string' ? owner : JSON.stringify(owner));

/** Another live process, as a second `npm start` would be. */
async function otherProcess(): Promise<ChildProcess & { pid: number }> {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  children.push(child);
  await new Promise((resolve) => child.once('spawn', resolve));
  return child as ChildProcess & { pid: number };
}

describe('lockDataDir', () => {
  it('holds the directory for this process and lets it go on release', () => {
    const release = lockDataDir(dir);
    expect(JSON.parse(readFileSync(lockPath(), 'utf8'))).toEqual(currentOwner());
    // A second open in this same process would corrupt the directory as surely as another process.
    expect(() => lockDataDir(dir)).toThrow(DataDirInUseError);
    release();
    expect(existsSync(lockPath())).toBe(false);
    lockDataDir(dir)();
  });

  it('refuses while another live process holds it, naming that process, and takes it over once it is gone', async () => {
    const child = await otherProcess();
    writeLock({ pid: child.pid, started: processStart(child.pid), boot: currentOwner().boot });
    let refusal: unknown;
    try {
      lockDataDir(dir);
    } catch (err) {
      refusal = err;
    }
    expect(refusal).toBeInstanceOf(DataDirInUseError);
    expect((refusal as Error).message).toContain(`in use by another Townbeat process (pid ${child.pid})`);
    expect((refusal as Error).message).toContain(lockPath());
    // The lock is left as it was: it is the other process's.
    expect(JSON.parse(readFileSync(lockPath(), 'utf8')).pid).toBe(child.pid);

    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    const release = lockDataDir(dir);
    expect(JSON.parse(readFileSync(lockPath(), 'utf8')).pid).toBe(process.pid);
    release();
  });

  it.skipIf(processStart(process.pid) === null)('takes over a lock whose process id now belongs to another process (Linux /proc tells them apart)', async () => {
    const child = await otherProcess();
    // The id is alive, but that process started at another time than the lock's owner did.
    writeLock({ pid: child.pid, started: '1', boot: currentOwner().boot });
    lockDataDir(dir)();
    // And a lock from an earlier boot of the machine names no running process at all.
    writeLock({ pid: child.pid, started: processStart(child.pid), boot: 'an-earlier-boot' });
    lockDataDir(dir)();
  });

  it('takes over a lock that is empty or unreadable (a crash between creating and writing it)', () => {
    writeLock('');
    lockDataDir(dir)();
    writeLock('{"pid":');
    lockDataDir(dir)();
  });

  it('does not remove a lock another process has since taken', async () => {
    const release = lockDataDir(dir);
    const child = await otherProcess();
    const theirs = JSON.stringify({ pid: child.pid, started: processStart(child.pid), boot: currentOwner().boot });
    writeLock(theirs);
    release();
    expect(readFileSync(lockPath(), 'utf8')).toBe(theirs);
  });
});

describe('openDatabase on a data directory', () => {
  it('opens it once: a second opener is refused before it touches the database, which stays whole', { timeout: 60_000 }, async () => {
    const first = await openDatabase({ dataDir: dir });
    await first.db.execute(sql`create table kept (note text)`);
    await first.db.execute(sql`insert into kept values ('still here')`);
    await expect(openDatabase({ dataDir: dir })).rejects.toBeInstanceOf(DataDirInUseError);
    await first.close();
    expect(existsSync(lockPath())).toBe(false);

    const again = await openDatabase({ dataDir: dir });
    try {
      expect(await queryRows(again.db, sql`select note from kept`)).toEqual([{ note: 'still here' }]);
    } finally {
      await again.close();
    }
  });

  it('refuses a second process while the first has it open (a second npm start on the same DATA_DIR)', { timeout: 60_000 }, async () => {
    const client = new URL('./client.ts', import.meta.url).pathname;
    const script = `const { openDatabase } = await import(${JSON.stringify(client)}); await openDatabase({ dataDir: ${JSON.stringify(dir)} }); console.log('open'); setInterval(() => {}, 1000);`;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    children.push(child);
    await new Promise<void>((resolve, reject) => {
      child.stdout!.on('data', (d: Buffer) => d.toString().includes('open') && resolve());
      child.once('exit', (code) => reject(new Error(`the first process exited (${code})`)));
    });
    await expect(openDatabase({ dataDir: dir })).rejects.toThrow(`in use by another Townbeat process (pid ${child.pid})`);
  });
});
