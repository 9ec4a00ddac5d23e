import { FileSpreadsheet, X } from 'lucide-react';
import { useId } from 'react';
import { detectDelimiter, headerIndex } from '../../../contract/csv-layout.ts';
import { decodeText } from '../../../contract/decode-text.ts';
import { Button } from '../../components/ui/button.tsx';
import { inputClass } from './admin-overlay.tsx';

/** The server refuses larger CSVs; the browser says so before sending. */
export const MAX_CSV_BYTES = 10 * 1024 * 1024;

/** Our fields, in the order the mapping shows them; title and start are required. */
export const CSV_FIELDS = [
  { key: 'title', label: 'Title', required: true, guesses: ['title', 'name', 'event', 'event name', 'event title', 'summary'] },
  // "Start Time" comes last: beside a "Date" column it is the start's time of day (next field).
  { key: 'start', label: 'Start', required: true, guesses: ['start', 'start date', 'starts', 'date', 'begin', 'when', 'datetime', 'start datetime', 'start time'] },
  {
    key: 'startTime',
    label: 'Start time',
    required: false,
    guesses: ['start time', 'time', 'starts at', 'begin time', 'from'],
    hint: 'When the start column holds dates only and the times are in a column of their own.',
  },
  { key: 'end', label: 'End', required: false, guesses: ['end', 'end date', 'ends', 'end time', 'finish', 'end datetime'] },
  { key: 'venue', label: 'Venue', required: false, guesses: ['venue', 'location', 'place', 'venue name', 'where', 'park', 'location name'] },
  { key: 'address', label: 'Address', required: false, guesses: ['address', 'street', 'street address', 'venue address'] },
  { key: 'description', label: 'Description', required: false, guesses: ['description', 'details', 'summary text', 'about', 'notes', 'body'] },
  { key: 'url', label: 'Link', required: false, guesses: ['url', 'link', 'website', 'web', 'event url', 'tickets'] },
  { key: 'price', label: 'Price', required: false, guesses: ['price', 'cost', 'fee', 'admission'] },
  { key: 'category', label: 'Category', required: false, guesses: ['category', 'type', 'genre', 'tags'] },
  { key: 'lat', label: 'Latitude', required: false, guesses: ['lat', 'latitude'] },
  { key: 'lng', label: 'Longitude', required: false, guesses: ['lng', 'lon', 'long', 'longitude'] },
  { key: 'id', label: 'Row id', required: false, guesses: ['id', 'uid', 'event id', 'identifier'] },
] as const;

export type CsvFieldKey = (typeof CSV_FIELDS)[number]['key'];
export type CsvMapping = Partial<Record<CsvFieldKey, string>>;
export type CsvDateFormat = 'iso' | 'us' | 'eu';

export interface CsvAttachment {
  fileName: string;
  text: string;
  columns: string[];
  rows: number;
  mapping: CsvMapping;
  dateFormat: CsvDateFormat;
}

const norm = (s: string) =>
  s
    .toLowerCase()
    .replace(/[_\-.]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

/** Splits one CSV line on the delimiter, honouring double quotes ("a, b" and "" inside). */
function splitLine(line: string, delimiter: string): string[] {
  const out: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === delimiter) {
      out.push(cell.trim());
      cell = '';
    } else cell += ch;
  }
  out.push(cell.trim());
  return out;
}

/**
 * The header row's column names and the number of non-empty lines after it, found as the server
 * finds them (csv-layout.ts): the delimiter the file's first lines use most, and the first line
 * that names two columns or more as the header (a title line above it is not a row).
 */
export function readCsvHeader(text: string): { columns: string[]; rows: number } {
  const body = text.replace(/^\uFEFF/, '');
  const lines = body.split(/\r?\n/).filter((l) => l.trim());
  const delimiter = detectDelimiter(body);
  const at = headerIndex(lines.slice(0, 10).map((l) => splitLine(l, delimiter)));
  const columns = lines.length ? splitLine(lines[at]!, delimiter).filter(Boolean) : [];
  const rows = Math.max(0, lines.length - at - 1);
  return { columns, rows };
}

/** A first mapping from the column names: exact names first, then known synonyms. */
export function guessMapping(columns: string[]): CsvMapping {
  const mapping: CsvMapping = {};
  const used = new Set<string>();
  for (const field of CSV_FIELDS) {
    const hit = field.guesses.map((g) => columns.find((c) => !used.has(c) && norm(c) === g)).find(Boolean);
    if (hit) {
      mapping[field.key] = hit;
      used.add(hit);
    }
  }
  return mapping;
}

/** Reads a chosen file into an attachment, or says why it cannot be used. */
export async function readCsvFile(file: File): Promise<CsvAttachment | { error: string }> {
  if (file.size > MAX_CSV_BYTES) return { error: `${file.name} is larger than 10 MB` };
  // Spreadsheets on Windows save CSV as Windows-1252, and as UTF-16 for "Unicode text": read the bytes.
  const text = decodeText(new Uint8Array(await file.arrayBuffer()));
  const { columns, rows } = readCsvHeader(text);
  if (columns.length === 0) return { error: `${file.name} has no header row` };
  return { fileName: file.name, text, columns, rows, mapping: guessMapping(columns), dateFormat: 'iso' };
}

/** Which required fields the mapping still lacks, as a message, or null. */
export function mappingError(mapping: CsvMapping): string | null {
  const missing = CSV_FIELDS.filter((f) => f.required && !mapping[f.key]).map((f) => f.label);
  return missing.length ? `Choose the column for ${missing.join(' and ')}` : null;
}

/** The CSV connector's file, its column mapping and date format, for the add-source form. */
export function CsvUpload(props: {
  attachment: CsvAttachment | null;
  error?: string;
  onChoose: (file: File) => void;
  onChange: (a: CsvAttachment) => void;
  onRemove: () => void;
}) {
  const id = useId();
  const a = props.attachment;
  return (
    <fieldset className="mb-4 rounded-lg border border-border p-4">
      <legend className="px-1 text-sm font-medium">CSV file</legend>
      {!a ? (
        <>
          <label htmlFor={`${id}-file`} className="mb-1 block text-sm">
            Upload a CSV file
          </label>
          <input
            id={`${id}-file`}
            type="file"
            accept=".csv,text/csv,text/plain"
            aria-describedby={props.error ? `${id}-error` : `${id}-hint`}
            aria-invalid={props.error ? true : undefined}
            onChange={(e) => {
              const file = e.target.files?.[0];
              if (file) props.onChoose(file);
              e.target.value = '';
            }}
            className="block w-full text-sm file:mr-3 file:min-h-11 file:rounded-lg file:border-0 file:bg-muted file:px-4 file:font-medium"
          />
          <p id={`${id}-hint`} className="mt-1 text-xs text-muted-foreground">
            The first row names the columns. Up to 10 MB. Or leave this empty and give a CSV URL above.
          </p>
        </>
      ) : (
        <>
          <div className="mb-3 flex items-center justify-between gap-2">
            <p className="flex min-w-0 items-center gap-2 text-sm" data-testid="csv-file">
              <FileSpreadsheet className="h-4 w-4 shrink-0 text-primary" aria-hidden />
              <span className="truncate font-medium">{a.fileName}</span>
              <span className="shrink-0 text-muted-foreground">
                {a.rows} {a.rows === 1 ? 'row' : 'rows'}, {a.columns.length} columns
              </span>
            </p>
            <Button variant="ghost" onClick={props.onRemove} aria-label={`Remove ${a.fileName}`}>
              <X className="h-4 w-4" aria-hidden />
            </Button>
          </div>
          <div className="grid gap-x-4 sm:grid-cols-2">
            {CSV_FIELDS.map((f) => (
              <div key={f.key} className="mb-3">
                <label htmlFor={`${id}-${f.key}`} className="mb-1 block text-sm font-medium">
                  {f.label} column{f.required ? ' *' : ''}
                </label>
                <select
                  id={`${id}-${f.key}`}
                  aria-describedby={'hint' in f ? `${id}-${f.key}-hint` : undefined}
                  value={a.mapping[f.key] ?? ''}
                  onChange={(e) => props.onChange({ ...a, mapping: { ...a.mapping, [f.key]: e.target.value || undefined } })}
                  className={inputClass}
                >
                  <option value="">{f.required ? 'Choose a column' : '(none)'}</option>
                  {a.columns.map((c) => (
                    <option key={c} value={c}>
                      {c}
                    </option>
                  ))}
                </select>
                {'hint' in f && (
                  <p id={`${id}-${f.key}-hint`} className="mt-1 text-xs text-muted-foreground">
                    {f.hint}
                  </p>
                )}
              </div>
            ))}
            <div className="mb-3">
              <label htmlFor={`${id}-dates`} className="mb-1 block text-sm font-medium">
                Dates like 03/04/2026 are
              </label>
              <select id={`${id}-dates`} value={a.dateFormat} onChange={(e) => props.onChange({ ...a, dateFormat: e.target.value as CsvDateFormat })} className={inputClass}>
                <option value="iso">Not used (ISO dates: 2026-03-04)</option>
                <option value="us">Month first (US: March 4)</option>
                <option value="eu">Day first (April 3)</option>
              </select>
            </div>
          </div>
        </>
      )}
      {props.error && (
        <p id={`${id}-error`} role="alert" className="text-sm text-destructive">
          {props.error}
        </p>
      )}
    </fieldset>
  );
}
