import { parseFeed } from './src/server/features/ingestion/parse/feed.parse.ts';
import { readFileSync } from 'node:fs';
const d = 'src/server/features/ingestion/connectors/__samples__/rss/';
for (const [f, zone] of [['rss-mod-event.xml','Europe/London'],['atom-events.xml','Europe/Berlin'],['rss-plain-text-dates.xml','America/Chicago']]) {
  const r = parseFeed({ text: readFileSync(d + f, 'utf8'), now: new Date('2026-03-01T00:00:00Z'), timeZone: zone, horizonDays: 180, maxOccurrences: 500 });
  console.log(f, r.skipped);
  for (const c of r.candidates) console.log(' ', JSON.stringify(c));
}
