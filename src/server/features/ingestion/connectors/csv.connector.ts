import { fetchSource } from '../fetch/fetch-source.ts';
import { DEFAULT_MAX_BYTES } from '../fetch/safe-fetch.ts';
import { SourceError, type Connector, type ConnectorResult } from '../ingestion.types.ts';
import { notOver } from '../parse/common.ts';
import type { CsvDateFormat, CsvMapping, CsvRowError } from '../parse/csv.parse.ts';
import { parseInSandbox } from '../parse/sandbox.ts';
import { createRunNotes, type RunNote } from '../run-notes.ts';

/** A CSV run also reports the rows it could not read (row 1 is the header). */
export interface CsvConnectorResult extends ConnectorResult {
  rowErrors: CsvRowError[];
}

const MAPPING_KEYS = ['title', 'start', 'startTime', 'end', 'venue', 'address', 'description', 'url', 'price', 'category', 'lat', 'lng', 'id'] as const;

/** Reads `config.mapping` ({ title: 'Event name', start: 'Date', ... }) or refuses clearly. */
export function readMapping(config: Record<string, unknown>): CsvMapping {
  const raw = config.mapping;
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new SourceError('the CSV source has no column mapping (config.mapping)');
  const m = raw as Record<string, unknown>;
  const out: Partial<Record<(typeof MAPPING_KEYS)[number], string>> = {};
  for (const key of MAPPING_KEYS) {
    const v = m[key];
    if (v === undefined || v === null || v === '') continue;
    if (typeof v !== 'string') throw new SourceError(`the CSV column mapping for "${key}" must be a column name`);
    out[key] = v;
  }
  if (!out.title || !out.start) throw new SourceError('the CSV column mapping needs at least "title" and "start"');
  return out as CsvMapping;
}

function readDateFormat(config: Record<string, unknown>): CsvDateFormat {
  const f = config.dateFormat;
  if (f === undefined || f === null || f === '') return 'iso';
  if (f === 'iso' || f === 'us' || f === 'eu') return f;
  throw new SourceError('the CSV date format must be "iso", "us" or "eu"');
}

/** CSV uploaded by an admin (`config.csv`) or fetched from the source's URL, with a column mapping. */
export const csvConnector: Connector = {
  id: 'csv',
  async run(source, ctx): Promise<CsvConnectorResult> {
    const mapping = readMapping(source.config);
    const dateFormat = readDateFormat(source.config);
    let text: string;
    let etag: string | null = null;
    let lastModified: string | null = null;
    if (typeof source.config.csv === 'string') {
      text = source.config.csv;
      if (Buffer.byteLength(text) > DEFAULT_MAX_BYTES) throw new SourceError('the CSV is larger than 10 MB');
    } else {
      const got = await fetchSource(source, ctx, 'text/csv, text/plain;q=0.9, */*;q=0.5');
      if (got.notModified) return { candidates: [], notModified: true, etag: got.etag, lastModified: got.lastModified, rowErrors: [] };
      text = got.res.text();
      etag = got.etag;
      lastModified = got.lastModified;
    }
    const parsed = await parseInSandbox('csv', { text, mapping, options: { timeZone: ctx.timeZone, dateFormat } });
    if (parsed.candidates.length === 0 && parsed.errors.length > 0) {
      const first = parsed.errors.slice(0, 3).map((e) => `row ${e.row}: ${e.message}`);
      throw new SourceError(`no row of the CSV could be read (${first.join('; ')}${parsed.errors.length > 3 ? '; …' : ''})`);
    }
    return { candidates: parsed.candidates.filter((c) => notOver(c, ctx.now)), notes: [...rowNotes(parsed.errors), ...parsed.notes], etag, lastModified, rowErrors: parsed.errors };
  },
};

/** The row errors as run notes, grouped by what went wrong, with the row number (and cell) as examples. */
export function rowNotes(errors: readonly CsvRowError[]): RunNote[] {
  const notes = createRunNotes();
  for (const e of errors) notes.add(e.kind, e.reason, e.value === undefined ? `row ${e.row}` : `row ${e.row}: ${e.value}`);
  return notes.list();
}
