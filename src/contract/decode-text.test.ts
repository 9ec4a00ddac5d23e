import { describe, expect, it } from 'vitest';
import { decodeText } from './decode-text.ts';

const utf16le = (text: string) => new Uint8Array([0xff, 0xfe, ...Buffer.from(text, 'utf16le')]);

describe('decodeText', () => {
  it('reads UTF-8, with or without its BOM', () => {
    expect(decodeText(Buffer.from('Café Señor'))).toBe('Café Señor');
    expect(decodeText(new Uint8Array([0xef, 0xbb, 0xbf, ...Buffer.from('Café')]))).toBe('Café');
  });

  it('reads a spreadsheet saved as Windows-1252 (accents, the euro sign, curly quotes) without a charset', () => {
    // "Café – 5 € “Fête”" as Excel on Windows writes it.
    const bytes = new Uint8Array([0x43, 0x61, 0x66, 0xe9, 0x20, 0x96, 0x20, 0x35, 0x20, 0x80, 0x20, 0x93, 0x46, 0xea, 0x74, 0x65, 0x94]);
    expect(decodeText(bytes)).toBe('Café – 5 € “Fête”');
  });

  it('reads UTF-16 with its BOM (a spreadsheet\'s "Unicode text")', () => {
    expect(decodeText(utf16le('Title\tStart\nFête,2026-06-21\n'))).toBe('Title\tStart\nFête,2026-06-21\n');
  });

  it('follows a declared charset, and ignores one it does not know', () => {
    expect(decodeText(Buffer.from('caf\xe9', 'latin1'), 'iso-8859-1')).toBe('café');
    // A feed declared iso-8859-1 or windows-1252 is read as Windows-1252, as browsers do: its curly
    // quotes and euro sign are kept, not turned into control characters (which are then removed).
    expect(decodeText(new Uint8Array([0x93, 0x46, 0xea, 0x74, 0x65, 0x94, 0x20, 0x35, 0x80]), 'iso-8859-1')).toBe('“Fête” 5€');
    expect(decodeText(new Uint8Array([0x96]), 'windows-1252')).toBe('–');
    expect(decodeText(Buffer.from('Café'), 'no-such-charset')).toBe('Café');
  });

  it('keeps UTF-8 with one broken byte as UTF-8: its other characters are right', () => {
    const bytes = new Uint8Array([...Buffer.from('Señor '), 0xff, ...Buffer.from(' Café')]);
    expect(decodeText(bytes)).toBe('Señor \ufffd Café');
  });
});
