import { describe, expect, it } from 'vitest';
import { guessMapping } from './csv-upload.tsx';

describe('guessMapping', () => {
  it('takes a "Date" column as the start and a "Start Time" beside it as its time of day', () => {
    expect(guessMapping(['Event', 'Date', 'Start Time', 'End Time', 'Park'])).toEqual({ title: 'Event', start: 'Date', startTime: 'Start Time', end: 'End Time', venue: 'Park' });
  });

  it('takes a "Start Time" column as the start when the sheet has no date column', () => {
    expect(guessMapping(['Title', 'Start Time', 'Location'])).toEqual({ title: 'Title', start: 'Start Time', venue: 'Location' });
  });
});
