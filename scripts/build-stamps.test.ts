import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fileHash, serverDecision, serverPaths, stampPath, webDecision } from './build-stamps.mjs';

let root: string;
const write = (path: string, text: string) => {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
};

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'townbeat-build-stamps-'));
  write('src/server/main.ts', 'export const a = 1;');
  write('src/web/main.tsx', 'export const b = 2;');
  write('package-lock.json', '{}');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('serverDecision (what prestart decides without TypeScript)', () => {
  it('builds when there is no bundle, skips once a stamp matches it, builds again when a server source changes', () => {
    expect(serverDecision(root)).toMatchObject({ build: true, reason: 'no build yet' });
    const paths = serverPaths(root);
    write('dist/server/main.mjs', 'bundle');
    writeFileSync(paths.stamp, JSON.stringify({ hash: serverDecision(root).hash, index: fileHash(paths.bundle) }));
    expect(serverDecision(root)).toMatchObject({ build: false, reason: 'the sources are unchanged since the last build' });
    write('src/server/main.ts', 'export const a = 2;');
    expect(serverDecision(root)).toMatchObject({ build: true, reason: 'the sources changed since the last build' });
  });

  it('is not moved by a web source or a test file, and is forced on request', () => {
    const before = serverDecision(root).hash;
    write('src/web/main.tsx', 'export const b = 3;');
    write('src/server/main.test.ts', 'it()');
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
