// Text from bytes whose encoding may not be declared, shared by the server (fetched feeds) and the
// browser (an uploaded CSV file). A byte order mark wins, then a declared charset; otherwise the
// bytes are UTF-8, unless they are not UTF-8 at all: then they are read as Windows-1252, which is
// what spreadsheet programs on Windows write when they save a CSV ("Café" saved by Excel is the
// byte E9, which UTF-8 would turn into "Caf�").

const BOMS: [number[], string][] = [
  [[0xef, 0xbb, 0xbf], 'utf-8'],
  [[0xff, 0xfe], 'utf-16le'],
  [[0xfe, 0xff], 'utf-16be'],
];

/** Windows-1252's characters for the bytes 0x80 to 0x9F (five are unassigned and stay as they are). */
const CP1252_HIGH = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ';

/**
 * Decodes with `decoder`. Node's TextDecoder reads Windows-1252 (and the labels that mean it:
 * iso-8859-1, latin1, ascii) as ISO-8859-1, so 0x80 to 0x9F come out as control characters where
 * a browser gives € “ ” – — and the rest; they are mapped here.
 */
function decode(decoder: TextDecoder, bytes: Uint8Array): string {
  const text = decoder.decode(bytes);
  return decoder.encoding === 'windows-1252' ? text.replace(/[\u0080-\u009f]/g, (c) => CP1252_HIGH[c.charCodeAt(0) - 0x80]!) : text;
}

function decoderFor(label: string): TextDecoder | null {
  try {
    return new TextDecoder(label.trim().toLowerCase());
  } catch {
    return null;
  }
}

/** The encoding a byte order mark at the start names, or null. */
export function bomEncoding(bytes: Uint8Array): string | null {
  for (const [mark, encoding] of BOMS) if (mark.every((b, i) => bytes[i] === b)) return encoding;
  return null;
}

/**
 * Decodes `bytes` as the BOM, else `declared` (a charset label, ignored when unknown), else UTF-8;
 * bytes that are not UTF-8 and hold no UTF-8 character at all are read as Windows-1252. A file
 * that is UTF-8 with a few broken bytes stays UTF-8 (its other characters are right).
 */
export function decodeText(bytes: Uint8Array, declared?: string | null): string {
  const bom = bomEncoding(bytes);
  // TextDecoder drops a leading BOM by default.
  if (bom) return new TextDecoder(bom).decode(bytes);
  const named = declared ? decoderFor(declared) : null;
  if (named) return decode(named, bytes);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    const lossy = new TextDecoder('utf-8').decode(bytes);
    // Any character beyond ASCII that decoded cleanly means UTF-8 with damage, not another encoding.
    return /[^\p{ASCII}\ufffd]/u.test(lossy) ? lossy : decode(new TextDecoder('windows-1252'), bytes);
  }
}
