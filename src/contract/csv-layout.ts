// How a CSV file is laid out, read the same way by the upload form (its columns and row count)
// and by the server's parser: the delimiter, and which row is the header.

const DELIMITERS = [',', ';', '\t', '|'] as const;
/** Rows looked at for the delimiter and the header: title lines above a header are few. */
const LEAD_ROWS = 10;

/** How often `d` occurs in the line outside double quotes ("a, b" is one cell). */
function countOutsideQuotes(line: string, d: string): number {
  let n = 0;
  let quoted = false;
  for (const ch of line) {
    if (ch === '"') quoted = !quoted;
    else if (ch === d && !quoted) n++;
  }
  return n;
}

/**
 * The delimiter (, ; tab or |) of the file: the one the first line holding any of them (outside
 * quotes) holds most, so a title line with no delimiter above the header is passed over. Only that
 * line counts: a row's cells may hold the other characters unquoted ("March 14, 2026" in a file
 * separated by ;). A comma when no line holds one.
 */
export function detectDelimiter(text: string): string {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/, 200).filter((l) => l.trim()).slice(0, LEAD_ROWS);
  for (const line of lines) {
    const counts = DELIMITERS.map((d) => [d, countOutsideQuotes(line, d)] as const).sort((a, b) => b[1] - a[1]);
    if (counts[0]![1] > 0) return counts[0]![0];
  }
  return ',';
}

/**
 * Which of the first rows is the header: the first that names two columns or more. A sheet may
 * open with its title ("Portland Parks: Spring 2026", often followed by empty cells) or a blank
 * row; 0 when no early row names two columns.
 */
export function headerIndex(rows: readonly (readonly string[])[]): number {
  const i = rows.slice(0, LEAD_ROWS).findIndex((cells) => cells.filter((c) => c.trim()).length >= 2);
  return i < 0 ? 0 : i;
}
