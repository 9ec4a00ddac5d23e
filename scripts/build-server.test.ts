import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { afterEach, describe, expect, it } from 'vitest';
import { sourceUrlPlugin } from './build-server.ts';

let dir = '';
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('sourceUrlPlugin', () => {
  it('keeps each module’s own import.meta.url inside the bundle, so files beside it still resolve', async () => {
    dir = mkdtempSync(join(tmpdir(), 'townbeat-build-server-'));
    mkdirSync(join(dir, 'src/db'), { recursive: true });
    writeFileSync(join(dir, 'src/db/client.ts'), "export const migrations: string = new URL('./migrations', import.meta.url).href;");
    writeFileSync(join(dir, 'src/main.ts'), "export { migrations } from './db/client.ts';\nexport const self: string = import.meta.url;");
    const outfile = join(dir, 'out/main.mjs');
    await build({ entryPoints: [join(dir, 'src/main.ts')], outfile, bundle: true, platform: 'node', format: 'esm', logLevel: 'silent', plugins: [sourceUrlPlugin] });
    const bundled = (await import(pathToFileURL(outfile).href)) as { migrations: string; self: string };
    expect(bundled.migrations).toBe(pathToFileURL(join(dir, 'src/db/migrations')).href);
    expect(bundled.self).toBe(pathToFileURL(join(dir, 'src/main.ts')).href);
  });
});
