import { fetchSource, urlIssue } from '../fetch/fetch-source.ts';
import { DEFAULT_MAX_BYTES } from '../fetch/safe-fetch.ts';
import { SourceError, type Connector, type ConnectorResult, type SourceIssue, type SourceSpec } from '../ingestion.types.ts';
import { notOver } from '../parse/common.ts';
import type { CsvDateFormat, CsvMapping, CsvRowError } from '../parse/csv.parse.ts';
import { parseInSandbox } from '../parse/sandbox.ts';
import { createRunNotes, type RunNote } from '../run-notes.ts';

/** A CSV run also reports the rows it could not read (row 1 is the header). */
export interface CsvConnectorResult extends ConnectorResult {
  rowErrors: CsvRowError[];
}

const MAPPING_KEYS = ['title', 'start', 'startTime', 'end', 'venue', 'address', 'description', 'url', 'price', 'category', 'lat', 'lng', 'id'] as const;
const DATE_FORMATS: readonly unknown[] = ['iso', 'us', 'eu'] satisfies CsvDateFormat[];
/** Blank mapping entries and date formats are left out, as if not given. */
const given = (v: unknown) => v !== undefined && v !== null && v !== '';

/** Reads `config.mapping` ({ title: 'Event name', start: 'Date', ... }) or refuses clearly. */
export function readMapping(config: Record<string, unknown>): CsvMapping {
  const raw = config.mapping;
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new SourceError('the CSV source has no column mapping (config.mapping)');
  const m = raw as Record<string, unknown>;
  const out: Partial<Record<(typeof MAPPING_KEYS)[number], string>> = {};
  for (const key of MAPPING_KEYS) {
    const v = m[key];
    if (!given(v)) continue;
    if (typeof v !== 'string') throw new SourceError(`the CSV column mapping for "${key}" must be a column name`);
    out[key] = v;
  }
  if (!out.title || !out.start) throw new SourceError('the CSV column mapping needs at least "title" and "start"');
  return out as CsvMapping;
}

function readDateFormat(config: Record<string, unknown>): CsvDateFormat {
  const f = config.dateFormat;
  if (!given(f)) return 'iso';
  if (DATE_FORMATS.includes(f)) return f as CsvDateFormat;
  throw new SourceError('the CSV date format must be "iso", "us" or "eu"');
}

/**
 * What readMapping, readDateFormat and the fetch would refuse, as the admin API says it: a mapping
 * of at least title and start to column names, a date format it knows, and the file or its URL.
 */
function check({ url, config }: Pick<SourceSpec, 'url' | 'config'>): SourceIssue | undefined {
  const mapping = config.mapping;
  if (!mapping || typeof mapping !== 'object' || Array.isArray(mapping)) {
    return { path: 'config.mapping', message: 'config.mapping is required for a CSV source: which column holds each field, at least title and start' };
  }
  const m = mapping as Record<string, unknown>;
  const bad = MAPPING_KEYS.find((key) => given(m[key]) && typeof m[key] !== 'string');
  if (bad) return { path: `config.mapping.${bad}`, message: `config.mapping.${bad} must be a column name` };
  const missing = (['title', 'start'] as const).find((key) => !given(m[key]));
  if (missing) return { path: `config.mapping.${missing}`, message: `config.mapping.${missing} is required for a CSV source` };
  if (given(config.dateFormat) && !DATE_FORMATS.includes(config.dateFormat)) return { path: 'config.dateFormat', message: 'config.dateFormat must be "iso", "us" or "eu"' };
  return typeof config.csv === 'string' ? undefined : urlIssue(url, 'a CSV source whose file is not uploaded (config.csv)');
}

/** CSV uploaded by an admin (`config.csv`) or fetched from the source's URL, with a column mapping. */
export const csvConnector: Connector = {
  id: 'csv',
  check,
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
