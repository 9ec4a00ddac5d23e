import { describe, expect, it } from 'vitest';
import type { EventItemFields } from '../sources.repository.ts';
import { fillChanges, keepFilled, ownValues, sameFilled, withoutFilled } from './merge-fill.ts';

const start = new Date('2026-12-05T18:00:00Z');
const ownEnd = new Date('2026-12-05T20:00:00Z');
const item = (o: Partial<EventItemFields> = {}): EventItemFields => ({
  title: 'Makers Fair', description: '', startDate: start, endDate: ownEnd, endGiven: false, allDay: false,
  venueName: '', address: null, neighbourhood: null, lat: null, lng: null, geoApprox: false,
  price: null, priceMax: null, priceNote: null, isFree: false, imageUrl: null, sourceUrl: null, ...o,
});
const merged = item({ description: 'Forty makers.', venueName: 'Leftbank Annex', lat: 45.53, lng: -122.667, price: 25, priceNote: 'at the door', endDate: new Date('2026-12-06T00:00:00Z'), endGiven: true });

describe('merge fill', () => {
  it("records the kept record's own value of each field a merge fills, and gives it back once nothing fills it", () => {
    const first = fillChanges({ ...item(), filled: {} }, merged);
    expect(first.set).toEqual({ description: 'Forty makers.', venueName: 'Leftbank Annex', lat: 45.53, lng: -122.667, price: 25, priceNote: 'at the door', endDate: merged.endDate, endGiven: true });
    // A group filled at all keeps the record's own values of all its fields.
    expect(first.filled).toEqual({
      description: '',
      price: null, priceMax: null, priceNote: null, isFree: false,
      venueName: '', address: null, neighbourhood: null, lat: null, lng: null, geoApprox: false,
      endDate: ownEnd.toISOString(), endGiven: false,
    });
    const now = { ...item(), ...first.set, filled: first.filled };
    expect(ownValues(now)).toMatchObject({ description: '', venueName: '', price: null, endDate: ownEnd, endGiven: false });
    // Filled again from what another record now says: the own values stay the record's.
    const again = fillChanges(now, { ...merged, price: 30 });
    expect(again.set).toEqual({ price: 30 });
    expect(again.filled).toEqual(first.filled);
    // Nothing fills it any more (a split): every field gets its own value back, and nothing is filled.
    const split = fillChanges(now, ownValues(now));
    expect(split.set).toEqual({ description: '', venueName: '', lat: null, lng: null, price: null, priceNote: null, endDate: ownEnd, endGiven: false });
    expect(split.filled).toEqual({});
  });

  it('leaves what an admin set their own', () => {
    expect(withoutFilled({ venueName: '', price: null, description: '' }, ['venueName', 'editedFields'])).toEqual({ price: null, description: '' });
  });

  it("keeps what was filled while the source still leaves it blank, and gives a group back once the source fills it", () => {
    const { set, filled } = fillChanges({ ...item(), filled: {} }, merged);
    const now = { ...item(), ...set };
    // The source renames its event, still without a place or a price: both stay filled.
    const renamed = keepFilled(item({ title: 'Makers Fair 2026' }), now, filled);
    expect(renamed.item).toMatchObject({ title: 'Makers Fair 2026', venueName: 'Leftbank Annex', lat: 45.53, price: 25, priceNote: 'at the door', description: 'Forty makers.' });
    expect(sameFilled(renamed.filled, filled)).toBe(true);
    // It now gives its own price: the whole price is its own (no note left from the other record), the place stays filled.
    const priced = keepFilled(item({ price: 10 }), now, filled);
    expect(priced.item).toMatchObject({ price: 10, priceNote: null, venueName: 'Leftbank Annex' });
    expect(Object.keys(priced.filled).sort()).toEqual(['address', 'description', 'endDate', 'endGiven', 'geoApprox', 'lat', 'lng', 'neighbourhood', 'venueName']);
    // It says free: the price filled from the other record is not kept beside it.
    expect(keepFilled(item({ isFree: true }), now, filled).item).toMatchObject({ isFree: true, price: null, priceNote: null });
    // It gives coordinates of its own: the other record's venue name goes with the rest of the place.
    expect(keepFilled(item({ lat: 45.5, lng: -122.6 }), now, filled).item).toMatchObject({ lat: 45.5, venueName: '' });
    // It moves the start without an end: the end filled for the old start is not kept.
    const moved = keepFilled(item({ startDate: new Date('2026-12-05T19:00:00Z'), endDate: new Date('2026-12-05T21:00:00Z') }), now, filled);
    expect(moved.item).toMatchObject({ endGiven: false, endDate: new Date('2026-12-05T21:00:00Z') });
    expect('endDate' in moved.filled).toBe(false);
  });

  it('compares filled maps whatever the order of their keys', () => {
    expect(sameFilled({ price: null, description: '' }, { description: '', price: null })).toBe(true);
    expect(sameFilled({ price: null }, { price: null, description: '' })).toBe(false);
    expect(sameFilled({ price: null }, { price: 0 })).toBe(false);
  });
});
