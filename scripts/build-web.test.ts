import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildDecision, fileHash, hashWebInputs, indexHash, readStamp, serverDecision, serverPaths, stampPath, webDecision } from './build-stamps.mjs';
import { buildWeb, devBuildFiles } from './build-web.ts';

let root: string;
const write = (path: string, text: string) => {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
};

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'townbeat-build-web-'));
  write('src/web/main.tsx', 'export const a = 1;');
  write('src/web/features/x/x-page.tsx', 'export const b = 2;');
  write('src/contract/events.ts', 'export const c = 3;');
  write('vite.config.ts', 'export default {};');
  write('package-lock.json', '{}');
  write('src/server/app.ts', 'server code');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('hashWebInputs', () => {
  it('changes when a web source, the contract, the config or the lockfile changes', () => {
    const first = hashWebInputs(root, {});
    expect(hashWebInputs(root, {})).toBe(first);
    for (const [file, text] of [
      ['src/web/main.tsx', 'export const a = 10;'],
      ['src/contract/events.ts', 'export const c = 30;'],
      ['vite.config.ts', 'export default { base: "/" };'],
      ['package-lock.json', '{"lockfileVersion":3}'],
      ['src/web/new-file.ts', ''],
    ] as const) {
      const before = hashWebInputs(root, {});
      write(file, text);
      expect(hashWebInputs(root, {}), file).not.toBe(before);
    }
  });

  it('ignores test files, server code and unrelated variables, but not VITE_ ones', () => {
    const before = hashWebInputs(root, { PATH: '/bin' });
    write('src/web/features/x/x-page.test.tsx', 'it()');
    write('src/server/app.ts', 'other server code');
    expect(hashWebInputs(root, { PATH: '/usr/bin' })).toBe(before);
    expect(hashWebInputs(root, { VITE_FLAG: '1' })).not.toBe(before);
  });

  it('tells a renamed file from an unchanged one', () => {
    const before = hashWebInputs(root, {});
    rmSync(join(root, 'src/web/main.tsx'));
    write('src/web/main2.tsx', 'export const a = 1;');
    expect(hashWebInputs(root, {})).not.toBe(before);
  });
});

describe('buildDecision', () => {
  const stamp = { hash: 'h1', index: 'i1' };
  it('skips the build when the stamp matches the inputs and the build on disk', () => {
    expect(buildDecision({ hash: 'h1', stamp, index: 'i1', force: false }).build).toBe(false);
  });
  it('builds when the inputs changed, nothing was built, the stamp is missing or the build was replaced', () => {
    expect(buildDecision({ hash: 'h2', stamp, index: 'i1', force: false })).toEqual({ build: true, reason: 'the sources changed since the last build' });
    expect(buildDecision({ hash: 'h1', stamp, index: null, force: false }).reason).toBe('no build yet');
    expect(buildDecision({ hash: 'h1', stamp: null, index: 'i1', force: false }).reason).toBe('no stamp from an earlier build');
    expect(buildDecision({ hash: 'h1', stamp, index: 'i2', force: false }).reason).toBe('the build was replaced since it was stamped');
  });
  it('always builds with --force', () => {
    expect(buildDecision({ hash: 'h1', stamp, index: 'i1', force: true }).build).toBe(true);
  });
});

describe('buildWeb', () => {
  it('does not start vite when the stamp beside WEB_DIR matches', async () => {
    const outDir = join(root, 'out');
    write('out/index.html', '<html></html>');
    const hash = hashWebInputs(root);
    writeFileSync(stampPath(outDir), JSON.stringify({ hash, index: indexHash(outDir) }));
    expect(readStamp(stampPath(outDir))).toEqual({ hash, index: indexHash(outDir) });
    const previous = process.env.WEB_DIR;
    process.env.WEB_DIR = outDir;
    try {
      const lines: string[] = [];
      const result = await buildWeb({ root, log: (l) => lines.push(l) });
      expect(result.built).toBe(false);
      expect(lines[0]).toMatch(/is current/);
    } finally {
      if (previous === undefined) delete process.env.WEB_DIR;
      else process.env.WEB_DIR = previous;
    }
  });
});

describe('devBuildFiles', () => {
  it("finds React's development build in built scripts", () => {
    write('out/assets/index-abc.js', 'console.error("Each child in a list should have a unique \\"key\\" prop.")');
    write('out/assets/other-def.js', 'export const x = 1;');
    expect(devBuildFiles(join(root, 'out'))).toEqual(['assets/index-abc.js']);
  });
});

describe('serverDecision (what prestart decides without TypeScript)', () => {
  it('builds when there is no bundle, skips once a stamp matches it, builds again when a server source changes', () => {
    expect(serverDecision(root)).toMatchObject({ build: true, reason: 'no build yet' });
    const paths = serverPaths(root);
    write('dist/server/main.mjs', 'bundle');
    writeFileSync(paths.stamp, JSON.stringify({ hash: serverDecision(root).hash, index: fileHash(paths.bundle) }));
    expect(serverDecision(root)).toMatchObject({ build: false, reason: 'the sources are unchanged since the last build' });
    write('src/server/app.ts', 'changed server code');
    expect(serverDecision(root)).toMatchObject({ build: true, reason: 'the sources changed since the last build' });
  });

  it('is not moved by a web source or a test file, and is forced on request', () => {
    const before = serverDecision(root).hash;
    write('src/web/main.tsx', 'export const a = 3;');
    write('src/server/app.test.ts', 'it()');
    expect(serverDecision(root).hash).toBe(before);
    expect(serverDecision(root, { force: true })).toMatchObject({ build: true, reason: 'forced' });
  });
});

describe('webDecision', () => {
  it('reads the stamp beside the output directory WEB_DIR names', () => {
    const outDir = join(root, 'elsewhere/web');
    const env = { WEB_DIR: outDir };
    expect(webDecision(root, { env })).toMatchObject({ outDir, build: true, reason: 'no build yet' });
    write('elsewhere/web/index.html', '<html></html>');
    writeFileSync(stampPath(outDir), JSON.stringify({ hash: webDecision(root, { env }).hash, index: fileHash(join(outDir, 'index.html')) }));
    expect(webDecision(root, { env }).build).toBe(false);
    expect(webDecision(root, { env: { ...env, VITE_FLAG: '1' } })).toMatchObject({ build: true, reason: 'the sources changed since the last build' });
  });
});
