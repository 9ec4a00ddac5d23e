import { describe, expect, it } from 'vitest';
import { guessMapping, readCsvHeader } from './csv-upload.tsx';

describe('guessMapping', () => {
  it('takes a "Date" column as the start and a "Start Time" beside it as its time of day', () => {
    expect(guessMapping(['Event', 'Date', 'Start Time', 'End Time', 'Park'])).toEqual({ title: 'Event', start: 'Date', startTime: 'Start Time', end: 'End Time', venue: 'Park' });
  });

  it('takes a "Start Time" column as the start when the sheet has no date column', () => {
    expect(guessMapping(['Title', 'Start Time', 'Location'])).toEqual({ title: 'Title', start: 'Start Time', venue: 'Location' });
  });
});

describe('readCsvHeader', () => {
  it('finds the header below a title line, as the server does, and counts the rows after it', () => {
    expect(readCsvHeader('Portland Parks: Spring 2026,,\r\n,,\r\nEvent,Date,Park\r\nYoga,2026-03-14,Laurelhurst\r\nHike,2026-03-15,Forest Park\r\n')).toEqual({ columns: ['Event', 'Date', 'Park'], rows: 2 });
    expect(readCsvHeader('\uFEFF"Event Name";Location;"Notes; extra"\nPicnic;Laurelhurst Park;"bring food, drinks, chairs"\n')).toEqual({ columns: ['Event Name', 'Location', 'Notes; extra'], rows: 1 });
  });
});
