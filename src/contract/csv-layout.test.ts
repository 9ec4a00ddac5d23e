import { describe, expect, it } from 'vitest';
import { detectDelimiter, headerIndex } from './csv-layout.ts';

describe('detectDelimiter', () => {
  it('takes the delimiter the lines use most, outside quotes', () => {
    expect(detectDelimiter('Title,Start\nPicnic,2026-03-14')).toBe(',');
    expect(detectDelimiter('Titel;Beginn;Notiz\nFest;2026-03-14;"Essen, Trinken, Stühle, Decken"')).toBe(';');
    expect(detectDelimiter('Title\tStart\nPicnic\t2026-03-14')).toBe('\t');
    expect(detectDelimiter('just one column')).toBe(',');
  });

  it('is not misled by a title line above the header, nor by unquoted characters in the rows', () => {
    expect(detectDelimiter('Portland Parks Spring 2026\nEvent;Date;Park\nYoga;2026-03-14;Laurelhurst')).toBe(';');
    // Excel writes a title cell with the empty cells after it.
    expect(detectDelimiter('Portland Parks: Spring, 2026;;\nEvent;Date;Park\nYoga;2026-03-14;Laurelhurst')).toBe(';');
    expect(detectDelimiter('Event;Start;End\nGala;March 14, 2026 7:30 PM;March 14, 2026 11:00 PM')).toBe(';');
    // A bare title line with a comma in it, above a header separated by ;.
    expect(detectDelimiter('Portland Parks, Spring 2026\nEvent;Date;Park\nYoga;March 14, 2026;Laurelhurst\nTai Chi;March 15, 2026;Sellwood')).toBe(';');
    expect(detectDelimiter('Portland Parks, Spring 2026\nEvent;Date;Park\nYoga;2026-03-14;Laurelhurst')).toBe(';');
    // Tab-separated rows whose text holds commas (tab files quote nothing).
    expect(detectDelimiter('Event\tDate\tNotes\nPicnic\t2026-03-14\tFood, drinks, chairs\nFair\t2026-03-15\tRides, games')).toBe('\t');
    // A comma sheet whose title line holds a ; is still a comma sheet.
    expect(detectDelimiter('Parks; Spring 2026\nEvent,Date,Park\nYoga,2026-03-14,Laurelhurst')).toBe(',');
  });
});

describe('headerIndex', () => {
  it('is the first row that names two columns or more', () => {
    expect(headerIndex([['Event', 'Date'], ['Yoga', '2026-03-14']])).toBe(0);
    expect(headerIndex([['Portland Parks: Spring 2026', '', ''], ['', '', ''], ['Event', 'Date', 'Park'], ['Yoga', '2026-03-14', 'Laurelhurst']])).toBe(2);
    expect(headerIndex([['only'], ['one'], ['column']])).toBe(0);
  });
});
