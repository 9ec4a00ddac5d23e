import { parseIcal } from './src/server/features/ingestion/parse/ical.parse.ts';
import { readFileSync } from 'node:fs';
const cases: [string, string, string][] = [
  ['ical4j__Packers.ics', '2004-09-01T00:00:00Z', 'America/Chicago'],
  ['ical4j__THFC.ics', '2002-08-01T00:00:00Z', 'Europe/London'],
  ['ical4j__EstoniaHolidays.ics', '2009-03-01T00:00:00Z', 'Europe/Tallinn'],
  ['icaljs__google_birthday.ics', '2012-12-01T00:00:00Z', 'America/Los_Angeles'],
  ['nodeical__ms_timezones.ics', '2020-06-01T00:00:00Z', 'Europe/Berlin'],
  ['nodeical__Office-2012-owa.ics', '2020-10-20T00:00:00Z', 'Australia/Sydney'],
  ['nodeical__meetup-timed-tz.ics', '2011-11-01T00:00:00Z', 'America/Phoenix'],
  ['recurring__discourse_no_dtend.ics', '2019-01-01T00:00:00Z', 'Europe/Berlin'],
  ['recurring__fablab_cottbus.ics', '2018-06-01T00:00:00Z', 'Europe/Berlin'],
  ['nodeical__tripit-location-escaping.ics', '2011-10-01T00:00:00Z', 'America/Los_Angeles'],
  ['nodeical__tv-show-episode.ics', '2011-03-25T00:00:00Z', 'Europe/Berlin'],
  ['icalendar__issue_127_categories_with_commas.ics', '2014-01-01T00:00:00Z', 'UTC'],
];
const only = process.argv[2];
for (const [f, now, tz] of cases) {
  if (only && !f.includes(only)) continue;
  const r = parseIcal({ text: readFileSync('/work/shared/fixtures/ics/' + f, 'utf8'), now: new Date(now), timeZone: tz, horizonDays: 180, maxOccurrences: 500 });
  console.log('==', f, r.candidates.length, 'skipped', r.skipped);
  for (const c of r.candidates.slice(0, Number(process.argv[3] ?? 4))) console.log('  ', JSON.stringify({ ...c, description: c.description?.slice(0, 60) }));
}
if (process.argv[4]) {
  const r = parseIcal({ text: readFileSync('/work/shared/fixtures/ics/' + process.argv[4], 'utf8'), now: new Date(process.argv[5]!), timeZone: process.argv[6]!, horizonDays: 180, maxOccurrences: 500 });
  for (const c of r.candidates) console.log(c.externalId.slice(-40), '|', c.title, '|', c.start.toISOString(), c.end?.toISOString(), c.venueName ?? '', c.cancelled ?? '');
}
