import * as chrono from 'chrono-node';
for (const t of ['Square Dance Night – April 3rd at 7pm', 'now online', 'Join us tonight', 'NIGHT', 'Freitag, 14. März um 19 Uhr', 'this weekend', 'Friday 8pm']) {
  const rs = chrono.casual.parse(t, { instant: new Date('2026-03-10T14:30:00Z'), timezone: -300 }, { forwardDate: true });
  for (const r of rs) console.log(JSON.stringify(t), '→', JSON.stringify(r.text), 'day?', r.start.isCertain('day'), 'wd?', r.start.isCertain('weekday'), 'mo?', r.start.isCertain('month'), 'h?', r.start.isCertain('hour'), r.start.get('year'), r.start.get('month'), r.start.get('day'), r.start.get('hour'), [...r.tags()]);
}
