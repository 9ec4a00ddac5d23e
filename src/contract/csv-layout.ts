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
 * The delimiter (, ; tab or |) of the file: the one that gives its first lines (outside quotes) one
 * shape, the same count on the most lines, and of two as steady the one with more columns. A line
 * above the header, a title with a comma in it or with none, is one line against the rest; a cell
 * holding another of the characters unquoted ("March 14, 2026" in a file separated by ;) gives
 * fewer columns than the true delimiter does. A comma when no line holds any.
 */
export function detectDelimiter(text: string): string {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/, 200).filter((l) => l.trim()).slice(0, LEAD_ROWS);
  let best = { d: ',', lines: 0, count: 0 };
  for (const d of DELIMITERS) {
    const seen = new Map<number, number>();
    for (const line of lines) {
      const n = countOutsideQuotes(line, d);
      if (n > 0) seen.set(n, (seen.get(n) ?? 0) + 1);
    }
    for (const [count, n] of seen) {
      if (n > best.lines || (n === best.lines && count > best.count)) best = { d, lines: n, count };
    }
  }
  return best.d;
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
