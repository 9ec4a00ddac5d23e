// Scoring what the scanner read from a flyer against the flyer's truth (bench/flyers.bench.ts).

const STOP = new Set(['the', 'and', 'for', 'with', 'from', 'at', 'of', 'a', 'an', 'in', 'on', 'to', 'by', 'de', 'en', 'der', 'die', 'das', 'und', 'het']);

/** Lower case, accents dropped, every run of punctuation or space one space. */
export function norm(s: string): string {
  return s
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

export function levenshtein(a: string, b: string): number {
  if (a === b) return 0;
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) cur.push(Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1)));
    prev = cur;
  }
  return prev[b.length]!;
}

/** Words that carry the title: not stop words, and 3+ characters or containing a digit. */
export const significant = (s: string) => norm(s).split(' ').filter((w) => w && !STOP.has(w) && (w.length >= 3 || /\d/.test(w)));

/**
 * The title is right when, normalised, its edit distance to the truth is at most 15% of the
 * longer one, or every significant word of the truth is in it and it is not much longer than
 * the truth (a title that swallowed the date or venue line as well is wrong).
 */
export function titleRight(truth: string, read: string | null | undefined): boolean {
  if (!read) return false;
  const a = norm(truth);
  const b = norm(read);
  if (!b) return false;
  if (levenshtein(a, b) / Math.max(a.length, b.length) <= 0.15) return true;
  const words = new Set(b.split(' '));
  const sig = significant(truth);
  return sig.length > 0 && sig.every((w) => words.has(w)) && b.length <= a.length * 1.5 + 8;
}

/** Whether the OCR text holds the title at all (every significant word, tolerating one wrong character in words of 5+). */
export function titleInText(truth: string, text: string): boolean {
  const words = norm(text).split(' ');
  const set = new Set(words);
  return significant(truth).every((w) => set.has(w) || (w.length >= 5 && words.some((x) => Math.abs(x.length - w.length) <= 1 && levenshtein(x, w) <= 1)));
}

/** Local "YYYY-MM-DD HH:MM" of an instant in a zone. */
export function localStamp(d: Date, timeZone: string): string {
  const p = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(d);
  const g = (t: string) => p.find((x) => x.type === t)!.value;
  return `${g('year')}-${g('month')}-${g('day')} ${g('hour')}:${g('minute')}`;
}

/**
 * The start is right when its local date and time (to the minute) are the truth's; on a
 * date-only flyer, when its local date is the truth's (a time read as well does not count against it).
 */
export function startRight(truth: { date: string; time: string | null }, start: Date | null | undefined, allDay: boolean | undefined, timeZone: string): boolean {
  if (!start || Number.isNaN(start.getTime())) return false;
  const stamp = allDay ? `${start.toISOString().slice(0, 10)} 00:00` : localStamp(start, timeZone);
  // An all-day start may be given as midnight UTC or midnight local: accept either reading of its date.
  const dates = allDay ? new Set([stamp.slice(0, 10), localStamp(start, timeZone).slice(0, 10)]) : new Set([stamp.slice(0, 10)]);
  if (!dates.has(truth.date)) return false;
  if (truth.time === null) return true;
  return !allDay && stamp.slice(11) === truth.time;
}

/** The nearest-rank percentile of sorted numbers. */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}
