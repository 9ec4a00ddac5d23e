// The landing page's JavaScript budget (issue 18), computed from a finished build: which files
// the landing page loads before it is interactive, and whether their gzip sizes fit. Pure: the
// caller (scripts/bundle-budget.ts) reads the files and gzips them. Never imported by the app.

/** 1 KiB = 1024 bytes. */
export const KIB = 1024;
/** Initial JavaScript of the landing page, gzip: 130 KiB = 133,120 bytes. */
export const LANDING_BUDGET_BYTES = 130 * KIB;
/**
 * Lazy modules the landing route renders at first paint, as keys of Vite's build manifest
 * (source paths relative to the Vite root, src/web): `/` signed out renders LandingPage.
 */
export const LANDING_LAZY_MODULES = ['features/landing/landing-page.tsx'] as const;

/** One record of Vite's `.vite/manifest.json` (the fields used here). */
export interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}
export type Manifest = Record<string, ManifestChunk>;

/** `/assets/a.js`, `./assets/a.js` and `assets/a.js` all name the same built file. */
function normalise(path: string): string {
  return path.replace(/^\.?\//, '');
}

function attr(tag: string, name: string): string | undefined {
  const m = new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i').exec(tag);
  return m ? (m[1] ?? m[2] ?? m[3]) : undefined;
}

/** The module scripts and module preloads of a built index.html, as paths inside the build. */
export function htmlModuleScripts(html: string): { entries: string[]; preloads: string[] } {
  const entries: string[] = [];
  const preloads: string[] = [];
  for (const [tag] of html.matchAll(/<script\b[^>]*>/gi)) {
    const src = attr(tag, 'src');
    if (src && attr(tag, 'type') === 'module' && !/^[a-z]+:\/\//i.test(src)) entries.push(normalise(src));
  }
  for (const [tag] of html.matchAll(/<link\b[^>]*>/gi)) {
    const href = attr(tag, 'href');
    if (href && attr(tag, 'rel') === 'modulepreload') preloads.push(normalise(href));
  }
  return { entries, preloads };
}

/** The manifest key of a chunk and every chunk it imports statically, depth first. */
function staticClosure(manifest: Manifest, key: string, seen: Set<string>, out: string[]): void {
  if (seen.has(key)) return;
  seen.add(key);
  const chunk = manifest[key];
  if (!chunk) throw new Error(`build manifest has no chunk "${key}"`);
  out.push(chunk.file);
  for (const dep of chunk.imports ?? []) staticClosure(manifest, dep, seen, out);
}

/**
 * The JavaScript files the landing page loads before it is interactive: the entry scripts of
 * index.html, everything they import statically (which Vite also lists as modulepreloads), and
 * the given lazy modules with their static imports. Throws when the manifest does not match.
 */
export function landingInitialFiles(html: string, manifest: Manifest, lazyModules: readonly string[] = LANDING_LAZY_MODULES): string[] {
  const { entries, preloads } = htmlModuleScripts(html);
  if (entries.length === 0) throw new Error('index.html has no module script');
  const byFile = new Map(Object.entries(manifest).map(([key, chunk]) => [chunk.file, key]));
  const seen = new Set<string>();
  const files: string[] = [];
  for (const entry of entries) {
    const key = byFile.get(entry);
    if (!key) throw new Error(`the build manifest does not list index.html's script ${entry}`);
    staticClosure(manifest, key, seen, files);
  }
  for (const mod of lazyModules) {
    if (!manifest[mod]) throw new Error(`the build manifest has no lazy chunk for ${mod} (renamed, or no longer lazy?)`);
    staticClosure(manifest, mod, seen, files);
  }
  // A preload the manifest walk missed is still fetched up front: count it too.
  for (const p of preloads) if (p.endsWith('.js') && !files.includes(p)) files.push(p);
  return files.filter((f) => f.endsWith('.js'));
}

export interface FileSize {
  file: string;
  bytes: number;
  gzip: number;
}
export interface BudgetResult {
  rows: FileSize[];
  totalBytes: number;
  totalGzip: number;
  budget: number;
  over: boolean;
}

/** Sums the sizes, largest gzip first; over the budget when the gzip total exceeds it. */
export function checkBudget(sizes: readonly FileSize[], budget = LANDING_BUDGET_BYTES): BudgetResult {
  const rows = [...sizes].sort((a, b) => b.gzip - a.gzip || a.file.localeCompare(b.file));
  const totalBytes = rows.reduce((n, r) => n + r.bytes, 0);
  const totalGzip = rows.reduce((n, r) => n + r.gzip, 0);
  return { rows, totalBytes, totalGzip, budget, over: totalGzip > budget };
}

const kib = (bytes: number) => `${(bytes / KIB).toFixed(2)} KiB`;

/** A plain-text table: one line per file, then the total against the budget. */
export function formatBudget(result: BudgetResult): string {
  const width = Math.max(4, ...result.rows.map((r) => r.file.length));
  const line = (file: string, bytes: string, gzip: string) => `${file.padEnd(width)}  ${bytes.padStart(12)}  ${gzip.padStart(12)}`;
  const out = [line('file', 'raw', 'gzip -9'), '-'.repeat(width + 28)];
  for (const r of result.rows) out.push(line(r.file, kib(r.bytes), kib(r.gzip)));
  out.push('-'.repeat(width + 28));
  out.push(line(`total (${result.rows.length} files)`, kib(result.totalBytes), kib(result.totalGzip)));
  const verdict = result.over ? 'OVER BUDGET' : 'within budget';
  out.push(
    `landing initial JavaScript: ${result.totalGzip} bytes gzip (${kib(result.totalGzip)}) of ${result.budget} bytes (${kib(result.budget)}, 1 KiB = 1024 bytes): ${verdict}`,
  );
  return out.join('\n');
}
