import { describe, expect, it } from 'vitest';
import { checkBudget, formatBudget, htmlModuleScripts, landingInitialFiles, LANDING_BUDGET_BYTES, type Manifest } from './bundle-budget.ts';

const HTML = `<!doctype html>
<html lang="en">
  <head>
    <script type="module" crossorigin src="/assets/index-AAA.js"></script>
    <link rel="modulepreload" crossorigin href="/assets/react-BBB.js">
    <link rel="modulepreload" crossorigin href="/assets/query-CCC.js">
    <link rel="stylesheet" crossorigin href="/assets/index-DDD.css">
  </head>
  <body><div id="root"></div></body>
</html>`;

const MANIFEST: Manifest = {
  'index.html': {
    file: 'assets/index-AAA.js',
    src: 'index.html',
    isEntry: true,
    imports: ['_react-BBB.js', '_query-CCC.js'],
    dynamicImports: ['features/landing/landing-page.tsx', 'features/discover/discover-page.tsx'],
  },
  '_react-BBB.js': { file: 'assets/react-BBB.js' },
  '_query-CCC.js': { file: 'assets/query-CCC.js', imports: ['_react-BBB.js'] },
  '_icon-EEE.js': { file: 'assets/icon-EEE.js', imports: ['_react-BBB.js'] },
  '_schemas-FFF.js': { file: 'assets/schemas-FFF.js' },
  'features/landing/landing-page.tsx': {
    file: 'assets/landing-page-GGG.js',
    isDynamicEntry: true,
    imports: ['index.html', '_icon-EEE.js'],
    dynamicImports: ['features/discover/discover-page.tsx'],
  },
  'features/discover/discover-page.tsx': {
    file: 'assets/discover-page-HHH.js',
    isDynamicEntry: true,
    imports: ['index.html', '_schemas-FFF.js'],
  },
};

describe('htmlModuleScripts', () => {
  it('finds the module entry and the modulepreloads, not the stylesheet', () => {
    expect(htmlModuleScripts(HTML)).toEqual({
      entries: ['assets/index-AAA.js'],
      preloads: ['assets/react-BBB.js', 'assets/query-CCC.js'],
    });
  });

  it('reads single-quoted and unquoted attributes and skips scripts from elsewhere', () => {
    const html = `<script src='./assets/a.js' type=module></script><script type="module" src="https://cdn.example/x.js"></script><script src="/legacy.js"></script>`;
    expect(htmlModuleScripts(html).entries).toEqual(['assets/a.js']);
  });
});

describe('landingInitialFiles', () => {
  it('counts the entry, its static imports and the landing chunk, not other lazy routes', () => {
    expect(landingInitialFiles(HTML, MANIFEST)).toEqual([
      'assets/index-AAA.js',
      'assets/react-BBB.js',
      'assets/query-CCC.js',
      'assets/landing-page-GGG.js',
      'assets/icon-EEE.js',
    ]);
  });

  it('counts a modulepreload that the manifest walk did not reach', () => {
    const html = HTML.replace('</head>', '<link rel="modulepreload" href="/assets/schemas-FFF.js"></head>');
    expect(landingInitialFiles(html, MANIFEST)).toContain('assets/schemas-FFF.js');
  });

  it('fails when the landing chunk is missing from the manifest', () => {
    expect(() => landingInitialFiles(HTML, MANIFEST, ['features/landing/renamed.tsx'])).toThrow(/no lazy chunk for features\/landing\/renamed\.tsx/);
  });

  it('fails when index.html names a script the manifest does not know', () => {
    expect(() => landingInitialFiles(HTML.replace('index-AAA', 'index-ZZZ'), MANIFEST)).toThrow(/does not list index\.html's script assets\/index-ZZZ\.js/);
  });
});

describe('checkBudget', () => {
  it('uses 130 KiB of 1024 bytes', () => {
    expect(LANDING_BUDGET_BYTES).toBe(133_120);
  });

  it('sums gzip sizes largest first and passes at exactly the budget', () => {
    const result = checkBudget(
      [
        { file: 'a.js', bytes: 300, gzip: 100 },
        { file: 'b.js', bytes: 900, gzip: 400 },
      ],
      500,
    );
    expect(result.rows.map((r) => r.file)).toEqual(['b.js', 'a.js']);
    expect(result).toMatchObject({ totalBytes: 1200, totalGzip: 500, budget: 500, over: false });
  });

  it('is over the budget one byte past it, and the table says so', () => {
    const result = checkBudget([{ file: 'assets/index-AAA.js', bytes: 4096, gzip: LANDING_BUDGET_BYTES + 1 }]);
    expect(result.over).toBe(true);
    const table = formatBudget(result);
    expect(table).toContain('assets/index-AAA.js');
    expect(table).toContain('133121 bytes gzip (130.00 KiB) of 133120 bytes (130.00 KiB, 1 KiB = 1024 bytes): OVER BUDGET');
  });
});
