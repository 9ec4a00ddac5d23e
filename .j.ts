import { parseJsonLd } from './src/server/features/ingestion/parse/jsonld.parse.ts';
import { readFileSync, readdirSync } from 'node:fs';
const d = '/work/shared/fixtures/jsonld/';
for (const f of readdirSync(d).filter(f => f.endsWith('.html'))) {
  const r = parseJsonLd({ text: readFileSync(d + f, 'utf8'), now: new Date('2010-01-01T00:00:00Z'), timeZone: 'America/New_York', horizonDays: 180, maxOccurrences: 500, baseUrl: 'https://example.org/events/' });
  console.log(f, r.candidates.length, 'skipped', r.skipped);
  for (const c of r.candidates) console.log('  ', JSON.stringify(c).slice(0, 400));
}
