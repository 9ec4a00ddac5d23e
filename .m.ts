import { createSandbox } from './src/server/features/ingestion/parse/sandbox.ts';
const base = { now: new Date('2026-01-01T00:00:00Z'), timeZone: 'Europe/Berlin', horizonDays: 180, maxOccurrences: 500 };
function bigCalendar(events: number): string {
  const lines = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//test//EN'];
  for (let i = 0; i < events; i++) lines.push('BEGIN:VEVENT', `UID:e${i}`, `DTSTART;TZID=Europe/Berlin:202602${String((i % 28) + 1).padStart(2, '0')}T190000`, `SUMMARY:Event ${i} ${'x'.repeat(200)}`, `DESCRIPTION:${'Lorem ipsum dolor sit amet. '.repeat(20)}`, 'END:VEVENT');
  lines.push('END:VCALENDAR');
  return lines.join('\r\n');
}
const s = createSandbox({ poolSize: 1, maxOldGenerationSizeMb: Number(process.env.MB ?? 16), timeoutMs: 120000 });
let t = performance.now();
await s.run('ical', { ...base, text: 'BEGIN:VCALENDAR\r\nEND:VCALENDAR' });
console.log('startup', Math.round(performance.now() - t));
const text = bigCalendar(Number(process.env.N ?? 20000));
console.log('MB', text.length / 1e6);
t = performance.now();
try { const r = await s.run('ical', { ...base, text }); console.log('ok', r.candidates.length); } catch (e) { console.log('err', (e as Error).message); }
console.log('ms', Math.round(performance.now() - t));
await s.close();
