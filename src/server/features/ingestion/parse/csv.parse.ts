// CSV uploaded by an admin (or fetched), with a mapping from our fields to the file's columns.
// A bad row is reported with its row number (the header is row 1, as in a spreadsheet) and
// the rest of the file is still read.

import { createHash } from 'node:crypto';
import * as chrono from 'chrono-node';
import { parse } from 'csv-parse/sync';
import { detectDelimiter, headerIndex } from '../../../../contract/csv-layout.ts';
import { isRealTimeOfDay, isRealWallClock } from '../../../../contract/time.ts';
import { SourceError, type CandidateEvent } from '../ingestion.types.ts';
import { priceFromText } from '../pipeline/price.ts';
import { createRunNotes, SKIP, type RunNote } from '../run-notes.ts';
import { compact, coordinates, DAY_MS, describeError, isValidTimeZone, parseIsoDate, toUtc, toWall, uniqueIds } from './common.ts';

export interface CsvMapping {
  title: string;
  start: string;
  /** The time of day, when the sheet keeps it apart from the date ("Date", "Start Time"). */
  startTime?: string;
  end?: string;
  venue?: string;
  address?: string;
  description?: string;
  url?: string;
  price?: string;
  category?: string;
  lat?: string;
  lng?: string;
  id?: string;
}

export type CsvDateFormat = 'iso' | 'us' | 'eu';

export interface CsvOptions {
  timeZone: string;
  /** How to read dates like 03/04/2026 (ISO dates are always accepted). Default 'iso'. */
  dateFormat?: CsvDateFormat;
}

export interface CsvRowError {
  row: number;
  message: string;
  /** Left out (`skipped`), or kept without the field (`kept`). */
  kind: 'skipped' | 'kept';
  /** The message as it groups the rows in the run's notes ("N entries <reason>"). */
  reason: string;
  /** The cell that could not be read, when one was. */
  value?: string;
}

export interface CsvResult {
  candidates: CandidateEvent[];
  errors: CsvRowError[];
  /** Exact repeats, kept once. */
  notes: RunNote[];
}

const MAPPING_KEYS = ['title', 'start', 'startTime', 'end', 'venue', 'address', 'description', 'url', 'price', 'category', 'lat', 'lng', 'id'] as const;

export function parseCsv(text: string, mapping: CsvMapping, opts: CsvOptions): CsvResult {
  if (!mapping || typeof mapping.title !== 'string' || typeof mapping.start !== 'string' || !mapping.title.trim() || !mapping.start.trim()) {
    throw new SourceError('the CSV column mapping needs at least "title" and "start"');
  }
  if (!isValidTimeZone(opts.timeZone)) throw new SourceError(`unknown time zone ${opts.timeZone}`);
  const body = text.replace(/^\uFEFF/, '');
  const delimiter = detectDelimiter(body);
  let records: string[][];
  try {
    records = parse(body, { delimiter, bom: true, relax_quotes: true, relax_column_count: true, skip_empty_lines: true, trim: true }) as string[][];
  } catch (err) {
    throw new SourceError(`invalid CSV: ${describeError(err)}`);
  }
  // Title lines above the header are not rows (row numbers stay those of the file's records).
  const headerAt = headerIndex(records);
  const header = records[headerAt];
  if (!header || header.every((h) => !h)) throw new SourceError('the CSV is empty');
  const columns = new Map<string, number>();
  header.forEach((h, i) => {
    const key = normaliseHeader(h);
    if (!columns.has(key)) columns.set(key, i);
  });
  const index: Partial<Record<keyof CsvMapping, number>> = {};
  for (const key of MAPPING_KEYS) {
    const name = mapping[key];
    if (name === undefined || name === '') continue;
    const i = columns.get(normaliseHeader(name));
    if (i === undefined) throw new SourceError(`the CSV has no column "${name}" (mapped to ${key}); its columns are: ${header.filter(Boolean).join(', ')}`);
    index[key] = i;
  }

  const format = opts.dateFormat ?? 'iso';
  const candidates: CandidateEvent[] = [];
  const errors: CsvRowError[] = [];
  for (let r = headerAt + 1; r < records.length; r++) {
    const row = r + 1;
    const cells = records[r]!;
    const get = (key: keyof CsvMapping) => {
      const i = index[key];
      const v = i === undefined ? undefined : cells[i];
      return v === undefined || v === '' ? undefined : v.replace(/\r\n?/g, '\n');
    };
    const title = get('title');
    const startText = get('start');
    if (!title) {
      errors.push({ row, message: 'no title', kind: 'skipped', reason: SKIP.noTitle });
      continue;
    }
    if (!startText) {
      errors.push({ row, message: 'no start date', kind: 'skipped', reason: 'had no start date' });
      continue;
    }
    let start = readDate(startText, format, opts.timeZone);
    // A date with its time in a column of its own: the two make the start.
    const startTimeText = get('startTime');
    if (start?.allDay && startTimeText) {
      const time = readTime(startTimeText);
      if (time) start = { date: sameDayAt(start.date, time, opts.timeZone), allDay: false };
      else errors.push({ row, message: `cannot read the start time "${startTimeText}"; the event is kept as all-day`, kind: 'kept', reason: 'had a start time that could not be read; kept as all-day', value: startTimeText });
    }
    if (!start) {
      const expected = format === 'iso' ? ' (expected YYYY-MM-DD HH:MM)' : format === 'us' ? ' (expected MM/DD/YYYY h:mm AM)' : ' (expected DD/MM/YYYY HH:MM)';
      errors.push({ row, message: `cannot read the start date "${startText}"${expected}`, kind: 'skipped', reason: `had a start date that could not be read${expected}`, value: startText });
      continue;
    }
    // A row with a title and a start is an event: a field beside them that cannot be read is
    // reported and left out, and the event kept (an unreadable end gets the default length).
    let end: Date | undefined;
    const endText = get('end');
    if (endText) {
      const timeOnly = readTime(endText);
      const endDate = timeOnly ? null : readDate(endText, format, opts.timeZone);
      // An end date without a time is inclusive: the event runs to the end of that day.
      if (timeOnly) end = sameDayAt(start.date, timeOnly, opts.timeZone);
      else if (endDate) end = endDate.allDay ? new Date(endDate.date.getTime() + DAY_MS) : endDate.date;
      else errors.push({ row, message: `cannot read the end date "${endText}"; the event is kept without it`, kind: 'kept', reason: 'had an end date that could not be read; kept without an end', value: endText });
      if (end && end.getTime() <= start.date.getTime()) {
        if (timeOnly) end = new Date(end.getTime() + DAY_MS);
        else {
          errors.push({ row, message: 'the end is before the start; the event is kept without it', kind: 'kept', reason: 'had an end before the start; kept without an end', value: endText });
          end = undefined;
        }
      }
    }
    // No end column, or nothing in it: the start cell's own range, if it writes one.
    if (!endText && start.end) end = start.end.allDay ? new Date(start.end.date.getTime() + DAY_MS) : start.end.date;
    if (!end && start.allDay) end = new Date(start.date.getTime() + DAY_MS);

    const priceText = get('price');
    // "Free", "12.50", "12,50", "$10-20", "$5 suggested donation", "Pay what you can".
    const reading = priceText === undefined ? undefined : priceFromText(priceText, { field: true });
    const price = reading?.isFree ? 0 : (reading?.price ?? undefined);
    const latText = get('lat');
    const lngText = get('lng');
    const ll = coordinates(latText, lngText);
    if ((latText || lngText) && ll.lat === undefined) {
      const value = `${latText ?? ''}, ${lngText ?? ''}`;
      errors.push({ row, message: `invalid coordinates "${value}"; the event is kept without them`, kind: 'kept', reason: 'had coordinates that could not be read; kept without them', value });
    }
    const url = get('url');
    const categories = get('category')
      ?.split(/[,;|]/)
      .map((c) => c.trim())
      .filter(Boolean);
    candidates.push(
      compact({
        externalId: get('id') ?? `csv:${createHash('sha1').update(`${title}\u0000${start.date.toISOString()}`).digest('hex').slice(0, 16)}`,
        title,
        description: get('description'),
        url: url && /^https?:\/\/\S+$/i.test(url) ? url : undefined,
        start: start.date,
        end,
        allDay: start.allDay || undefined,
        venueName: get('venue'),
        address: get('address'),
        lat: ll.lat,
        lng: ll.lng,
        price,
        priceMax: reading?.priceMax ?? undefined,
        priceNote: reading?.note ?? undefined,
        isFree: reading?.isFree ?? undefined,
        categories: categories?.length ? categories : undefined,
      }),
    );
  }
  // Rows that share an id column but differ in start or title are distinct events (a series id,
  // a venue code in the "id" column); only exact repeats are kept once.
  const notes = createRunNotes();
  const unique = uniqueIds(candidates, notes);
  return { candidates: unique.candidates, errors, notes: notes.list() };
}

function normaliseHeader(h: string): string {
  return h.replace(/^\uFEFF/, '').trim().toLowerCase().replace(/\s+/g, ' ');
}


interface TimeOfDay {
  hour: number;
  minute: number;
  second: number;
}

/** "19:30", "7:30 pm", "7pm", "19.30 Uhr". */
function readTime(text: string): TimeOfDay | null {
  const m = /^\s*(\d{1,2})(?:[:.](\d{2}))?(?::(\d{2}))?\s*(am|pm|a\.m\.|p\.m\.)?\s*(uhr|h)?\s*$/i.exec(text);
  if (!m || (!m[2] && !m[4])) return null;
  let hour = Number(m[1]);
  const minute = Number(m[2] ?? 0);
  const second = Number(m[3] ?? 0);
  const meridiem = m[4]?.toLowerCase().replace(/\./g, '');
  if (meridiem) {
    if (hour < 1 || hour > 12) return null;
    if (meridiem === 'pm' && hour !== 12) hour += 12;
    if (meridiem === 'am' && hour === 12) hour = 0;
  }
  if (!isRealTimeOfDay(hour, minute, second)) return null;
  return { hour, minute, second };
}

function sameDayAt(day: Date, t: TimeOfDay, zone: string): Date {
  const w = toWall(day, zone);
  return toUtc({ year: w.year, month: w.month, day: w.day, ...t }, zone);
}

/** A month written as a word: "March", "Mar.", "Sept". */
const MONTH_WORD = /\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?(?![a-z])/i;

/**
 * A date written with its month as a word, as people type them into sheets: "March 14, 2026
 * 7:30 PM", "Sat 14 Mar 2026", "Mar. 14, 2026, 10 a.m.". The year must be written (a sheet has
 * no date to count a bare "March 14" from) and the date must be most of the cell, so that a note
 * holding a date is not read as one. Month words are the same in every day/month order.
 */
function readWordDate(text: string, zone: string): ReadDate | null {
  if (!MONTH_WORD.test(text)) return null;
  const [r] = chrono.en.strict.parse(text, { instant: new Date(Date.UTC(2000, 0, 1)), timezone: 0 });
  const c = r?.start;
  if (!r || !c || !c.isCertain('year') || !c.isCertain('month') || !c.isCertain('day')) return null;
  const letters = (s: string) => s.replace(/[\W_]/g, '').length;
  if (letters(r.text) < 0.7 * letters(text)) return null;
  const start = fromComponents(c, zone);
  // A range in the cell ("March 14 - 15, 2026", "March 14, 2026 7-10 PM") also gives the end.
  const end = r.end ? fromComponents(r.end, zone) : null;
  return end && end.date.getTime() > start.date.getTime() ? { ...start, end } : start;
}

function fromComponents(c: chrono.ParsedComponents, zone: string): { date: Date; allDay: boolean } {
  if (c.isCertain('timezoneOffset')) return { date: c.date(), allDay: false };
  const timed = c.isCertain('hour');
  const day = { year: c.get('year')!, month: c.get('month')!, day: c.get('day')! };
  return { date: toUtc(timed ? { ...day, hour: c.get('hour') ?? 0, minute: c.get('minute') ?? 0 } : day, zone), allDay: !timed };
}

/** A date read from a cell; `end` when the cell writes a range. */
interface ReadDate {
  date: Date;
  allDay: boolean;
  end?: { date: Date; allDay: boolean };
}

/** A date (and optional time) in the given format; ISO and dates with the month as a word are always accepted. */
function readDate(text: string, format: CsvDateFormat, zone: string): ReadDate | null {
  const iso = parseIsoDate(text, zone);
  if (iso) return { date: iso.date, allDay: iso.allDay };
  const words = readWordDate(text, zone);
  if (words) return words;
  if (format === 'iso') return null;
  const m = /^\s*(\d{1,2})[/.-](\d{1,2})[/.-](\d{2}|\d{4})(?:[,\sT]+(.+))?$/.exec(text);
  if (!m) return null;
  const a = Number(m[1]);
  const b = Number(m[2]);
  let year = Number(m[3]);
  if (m[3]!.length === 2) year += year < 70 ? 2000 : 1900;
  const [month, day] = format === 'us' ? [a, b] : [b, a];
  // 30/02/2027 is no day at all (Date.UTC would make it 2 March): unreadable, not moved.
  if (!isRealWallClock({ year, month, day })) return null;
  if (!m[4]) return { date: toUtc({ year, month, day }, zone), allDay: true };
  const time = readTime(m[4]);
  if (!time) return null;
  return { date: toUtc({ year, month, day, ...time }, zone), allDay: false };
}

/** The sandbox's entry point (one plain-data argument). */
export interface CsvParseInput {
  text: string;
  mapping: CsvMapping;
  options: CsvOptions;
}

export function parseCsvInput(input: CsvParseInput): CsvResult {
  return parseCsv(input.text, input.mapping, input.options);
}
