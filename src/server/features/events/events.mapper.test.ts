import { describe, expect, it } from 'vitest';
import type { DetailRow } from './events.repository.ts';
import { fillFromMerged } from './events.mapper.ts';

const start = new Date('2026-12-05T18:00:00Z');
/** A stored record with what these tests need; the rest as a fresh row would have it. */
function record(o: Partial<DetailRow['event']> = {}): DetailRow {
  const event = {
    id: 'e', title: 'Makers Fair', description: '', category: 'Arts', categoryConfidence: 0.9, sourceType: 'ical', sourceUrl: null, imageUrl: null,
    startDate: start, endDate: new Date(start.getTime() + 2 * 3600_000), endGiven: false, timeZone: 'America/Los_Angeles', allDay: false,
    venueId: null, venueName: '', address: null, neighbourhood: null, lat: null, lng: null, geoApprox: false,
    attendeeCount: 0, checkinCount: 0, peopleCount: 0, price: null, priceMax: null, priceNote: null, isFree: false, isVerified: true, isDemo: false,
    status: 'approved', mergedInto: null, premergeStatus: null, goneAt: null, cancelledBySource: false, postponedBySource: false, editedFields: [], filled: {}, favoriteCount: 0,
    imageId: null, seriesKey: null, seriesPrevEnd: null, otherSourceTypes: null, contributedBy: null, createdAt: start, updatedAt: start,
    ...o,
  } satisfies DetailRow['event'];
  return { event, isFavorited: false, distanceM: null };
}
const mergedRecord = (o: Partial<DetailRow['event']> = {}) => record({ id: 'm', status: 'merged', mergedInto: 'e', premergeStatus: 'approved', ...o });

describe('fillFromMerged', () => {
  it('fills only blanks, each from the first record that has it, and takes a price or a place whole', () => {
    const kept = record({ description: 'Our own words', price: null, venueName: '' });
    const a = mergedRecord({ description: 'Their words', price: 12, priceMax: 15, priceNote: 'at the door', venueName: 'Leftbank Annex', address: '101 N Weidler St', lat: 45.53, lng: -122.667, neighbourhood: 'Lloyd' });
    const b = mergedRecord({ id: 'm2', price: 0, isFree: true, venueName: 'Elsewhere' });
    const { event } = fillFromMerged(kept, [a, b]);
    expect(event).toMatchObject({ description: 'Our own words', price: 12, priceMax: 15, priceNote: 'at the door', isFree: false, venueName: 'Leftbank Annex', address: '101 N Weidler St', lat: 45.53, lng: -122.667 });
    // The kept record itself is left as it was.
    expect(kept.event.venueName).toBe('');
  });

  it("keeps a free event free, a named place its own, and an end only another source's for the same start", () => {
    const kept = record({ isFree: true, venueName: 'Annex', lat: 45.5, lng: -122.6 });
    const later = mergedRecord({ price: 20, venueName: 'Other', lat: 45.6, lng: -122.7, startDate: new Date(start.getTime() + 600_000), endDate: new Date(start.getTime() + 5 * 3600_000), endGiven: true });
    expect(fillFromMerged(kept, [later]).event).toMatchObject({ isFree: true, price: null, venueName: 'Annex', lat: 45.5, endGiven: false });
    const sameStart = mergedRecord({ endDate: new Date(start.getTime() + 6 * 3600_000), endGiven: true });
    expect(fillFromMerged(kept, [sameStart]).event).toMatchObject({ endGiven: true, endDate: new Date(start.getTime() + 6 * 3600_000) });
  });

  it("gives a named place without its position the venue's point from a merged record", () => {
    const kept = record({ venueName: 'Central Library', address: '801 SW 10th Ave' });
    const withPoint = mergedRecord({ venueName: 'Multnomah County Central Library', lat: 45.519, lng: -122.6829, neighbourhood: 'Downtown' });
    expect(fillFromMerged(kept, [withPoint]).event).toMatchObject({ venueName: 'Central Library', address: '801 SW 10th Ave', lat: 45.519, lng: -122.6829, geoApprox: false, neighbourhood: 'Downtown' });
    // A neighbourhood's centre is no position to give; the kept record's own neighbourhood stays.
    const centreOnly = mergedRecord({ lat: 45.52, lng: -122.68, geoApprox: true });
    expect(fillFromMerged(kept, [centreOnly]).event).toMatchObject({ lat: null, lng: null });
    const approx = record({ venueName: 'Central Library', lat: 45.52, lng: -122.68, geoApprox: true, neighbourhood: 'Downtown' });
    expect(fillFromMerged(approx, [withPoint]).event).toMatchObject({ lat: 45.519, geoApprox: false, neighbourhood: 'Downtown' });
  });

  it('fills a listed event only from records that were listed and that their source still lists', () => {
    const kept = record();
    const unreviewed = mergedRecord({ description: 'Not yet reviewed', premergeStatus: 'pending' });
    const dropped = mergedRecord({ description: 'No longer listed', goneAt: start });
    expect(fillFromMerged(kept, [unreviewed, dropped]).event.description).toBe('');
    // An admin looking at an event in review sees what any of its records say.
    expect(fillFromMerged(record({ status: 'pending' }), [unreviewed]).event.description).toBe('Not yet reviewed');
  });
});
