import { describe, expect, it } from 'vitest';
import type { LinkedEvent, NearbyEvent } from '../sources.repository.ts';
import { itemFields } from './event-row.ts';
import { venueKey, type NormalisedEvent } from './normalise.ts';
import { descriptionKey, itemHash, listedMayMove, planRun, reidentify, slotWindows, type RunState } from './plan-run.ts';

const now = new Date('2026-11-23T18:00:00Z');
const item = (over: Partial<NormalisedEvent>): NormalisedEvent => ({
  externalId: 'x',
  title: 'Holiday Makers Fair',
  description: '',
  url: null,
  imageUrl: null,
  start: new Date('2026-12-05T18:00:00Z'),
  end: new Date('2026-12-05T20:00:00Z'),
  endGiven: true,
  allDay: false,
  timeZone: 'America/Los_Angeles',
  venueName: '',
  address: null,
  neighbourhood: null,
  lat: null,
  lng: null,
  geoApprox: false,
  price: null,
  priceMax: null,
  priceNote: null,
  isFree: false,
  categories: [],
  attendeeCount: 0,
  cancelled: false,
  postponed: false,
  ...over,
});
/** The event a source's item made, as a run reads it back: the item's fields, listed and approved. */
const linkedTo = (id: string, n: NormalisedEvent, over: Partial<LinkedEvent> = {}): LinkedEvent => ({ id, status: 'approved', venueId: null, mergedInto: null, editedFields: [], goneAt: null, cancelledBySource: false, postponedBySource: false, filled: {}, ...itemFields(n), ...over });
const listed = (over: Partial<NearbyEvent>): NearbyEvent => ({
  id: '00000000-0000-4000-8000-00000000000a',
  title: 'Holiday Makers Fair',
  startDate: new Date('2026-12-05T18:00:00Z'),
  venueId: null,
  venueName: 'Leftbank Annex',
  address: null,
  lat: 45.5297,
  lng: -122.6668,
  geoApprox: false,
  url: null,
  status: 'approved',
  contributedBy: null,
  descriptionKey: descriptionKey(''),
  ...over,
});
const state = (over: Partial<RunState> = {}): RunState => ({
  source: { id: 'me', name: 'Listings', sourceType: 'ical', trusted: true, isDemo: false },
  now,
  links: new Map(),
  listedBySource: new Set(),
  linked: new Map(),
  nearby: [],
  venues: new Map(),
  classify: () => ({ category: 'Arts', confidence: 0.9 }),
  approveConfidence: 0.6,
  mergeThreshold: null,
  ...over,
});

describe('planRun', () => {
  it('keeps a record merged on arrival whole, with the status it would have had', () => {
    const plan = planRun([item({ venueName: 'Leftbank Annex', lat: 45.5297, lng: -122.6668 })], state({ nearby: [listed({})] }));
    expect(plan.counts).toMatchObject({ created: 0, merged: 1 });
    expect(plan.newEvents[0]).toMatchObject({ status: 'merged', mergedInto: listed({}).id, premergeStatus: 'approved', title: 'Holiday Makers Fair' });
    expect(plan.newLinks).toHaveLength(1);
    expect(plan.announce).toEqual([]);
  });

  it("keeps an item that arrives cancelled or postponed as a record of the event it is one with, saying so; else drops it", () => {
    const there = { venueName: 'Leftbank Annex', lat: 45.5297, lng: -122.6668 };
    const into = listed({}).id;
    for (const off of ['cancelled', 'postponed'] as const) {
      const plan = planRun([item({ ...there, [off]: true })], state({ nearby: [listed({})] }));
      expect(plan.counts).toMatchObject({ created: 0, merged: 1, rejected: 0, calledOffMerged: ['Holiday Makers Fair'], cancelledUnlisted: [], postponedUnlisted: [] });
      expect(plan.newEvents).toEqual([
        expect.objectContaining({ status: 'merged', mergedInto: into, goneAt: now, cancelledBySource: off === 'cancelled', postponedBySource: off === 'postponed' }),
      ]);
      expect(plan.newLinks).toHaveLength(1);
      // Whoever saved the event hears it as this source's word; open pages learn it.
      expect(plan.news).toEqual([{ id: into, by: 'Listings', title: 'Holiday Makers Fair', allDay: false, kind: off, start: item({}).start }]);
      expect(plan.announce).toEqual([{ id: into, action: 'updated' }]);
    }
    // One with nothing listed to be one with (or only thin evidence: no proposal for it) is never stored.
    for (const nearby of [[], [listed({})]]) {
      const plan = planRun([item({ cancelled: true })], state({ nearby }));
      expect(plan.counts).toMatchObject({ created: 0, merged: 0, rejected: 1, cancelledUnlisted: ['Holiday Makers Fair'], calledOffMerged: [] });
      expect(plan.newEvents).toEqual([]);
      expect(plan.newVenues).toEqual([]);
      expect(plan.pairs).toEqual([]);
      expect(plan.news).toEqual([]);
    }
    // A new item listed as usual is no record of anything gone.
    expect(planRun([item(there)], state()).newEvents[0]).toMatchObject({ status: 'approved', goneAt: null, cancelledBySource: false, postponedBySource: false });
  });

  it('proposes a pair with thin evidence and lists both', () => {
    const plan = planRun([item({})], state({ nearby: [listed({})] }));
    expect(plan.counts).toMatchObject({ created: 1, merged: 0 });
    expect(plan.pairs).toHaveLength(1);
    expect(plan.pairs[0]).toMatchObject({ kind: 'cross_source' });
    expect(plan.pairs[0]!.eventA < plan.pairs[0]!.eventB).toBe(true);
  });

  it('merges a thin pair once admins decisions have set a threshold it reaches', () => {
    const plain = planRun([item({})], state({ nearby: [listed({})] }));
    const score = plain.pairs[0]!.score;
    const learned = planRun([item({})], state({ nearby: [listed({})], mergeThreshold: score }));
    expect(learned.counts).toMatchObject({ created: 0, merged: 1 });
    expect(planRun([item({})], state({ nearby: [listed({})], mergeThreshold: score + 0.01 })).counts.merged).toBe(0);
  });

  it('never merges a title that names a level, audience or language the other lacks by a learned threshold, however low', () => {
    const kids = item({ title: 'Holiday Makers Fair - Kids Edition', venueName: 'Leftbank Annex', lat: 45.5297, lng: -122.6668 });
    const plan = planRun([kids], state({ nearby: [listed({})], mergeThreshold: 0 }));
    expect(plan.counts).toMatchObject({ created: 1, merged: 0 });
    expect(plan.pairs).toMatchObject([{ kind: 'cross_source', reason: expect.stringContaining('level, audience or language') }]);
  });

  it('never merges two differently named venues that stand close together by a learned threshold, however low', () => {
    // Admins merged many pairs where one side named no venue: that says nothing of two named bars next door.
    const bingo = (venueName: string, address: string, lat: number, lng: number) => ({ title: 'Bingo Night', venueName, address, lat, lng, start: new Date('2027-03-11T05:00:00Z') });
    const plan = planRun([item(bingo('Bar Delta', '210 SE Division St', 45.5051, -122.6496))], state({ nearby: [listed({ ...bingo('Bar Gamma', '200 SE Division St', 45.505, -122.65), startDate: new Date('2027-03-11T05:00:00Z') })], mergeThreshold: 0 }));
    expect(plan.counts).toMatchObject({ created: 1, merged: 0 });
    expect(plan.pairs).toMatchObject([{ kind: 'cross_source', reason: expect.stringContaining('venues named differently but close') }]);
  });

  it('never merges into an event the same source already lists; an exact copy is proposed', () => {
    const mine = listed({});
    const plan = planRun([item({ venueName: 'Leftbank Annex', lat: 45.5297, lng: -122.6668 })], state({ nearby: [mine], listedBySource: new Set([mine.id]) }));
    expect(plan.counts).toMatchObject({ created: 1, merged: 0 });
    expect(plan.pairs).toMatchObject([{ kind: 'same_source' }]);
  });

  it('proposes no copy of an event its source lists under two ids with words of their own (two rooms of one venue)', () => {
    const mine = listed({ descriptionKey: descriptionKey('Main room: full backline, sign up at the bar.') });
    const plan = planRun([item({ venueName: 'Leftbank Annex', lat: 45.5297, lng: -122.6668, description: 'Back room: acoustic only.' })], state({ nearby: [mine], listedBySource: new Set([mine.id]) }));
    expect(plan.counts).toMatchObject({ created: 1, merged: 0 });
    expect(plan.pairs).toEqual([]);
  });

  it('never merges two items of one run from the same source', () => {
    const a = item({ externalId: 'a', venueName: 'Alberta Rose Theatre', lat: 45.559, lng: -122.6421 });
    const b = { ...a, externalId: 'b' };
    const plan = planRun([a, b], state());
    expect(plan.counts.created).toBe(2);
    expect(plan.pairs).toMatchObject([{ kind: 'same_source' }]);
  });

  it('keeps the hash an item had before price ranges and notes existed, unless it has one', () => {
    // The hash links stored before priceMax and priceNote: an unchanged item is not applied again (an admin's edit stays).
    expect(itemHash(item({ price: 12 }))).toBe('zu9-eLpHI5Ki2Hx_w8MOt8Dy41A');
    expect(itemHash(item({ price: 12, priceMax: 15 }))).not.toBe(itemHash(item({ price: 12 })));
    expect(itemHash(item({ price: 12, priceNote: 'at the door' }))).not.toBe(itemHash(item({ price: 12 })));
  });

  it("updates a linked event when the source's price reading changes: a range and a note", () => {
    const id = '00000000-0000-4000-8000-0000000000b1';
    const before = item({ price: 12 });
    const old = linkedTo(id, before);
    const links = new Map([['x', { eventId: id, contentHash: itemHash(before) }]]);
    const plan = planRun([item({ price: 12, priceMax: 15, priceNote: 'advance' })], state({ links, linked: new Map([[id, old]]) }));
    expect(plan.updates).toMatchObject([{ id, price: 12, priceMax: 15, priceNote: 'advance' }]);
    expect(planRun([before], state({ links, linked: new Map([[id, old]]) })).updates).toEqual([]);
  });

  it('moves a linked event to the venue its source now names, a known one or a new one, and keeps it while the name stays', () => {
    const id = '00000000-0000-4000-8000-0000000000b2';
    const before = item({ venueName: 'Doug Fir Lounge' });
    const old = linkedTo(id, before, { venueId: 'v-doug-fir' });
    const links = new Map([['x', { eventId: id, contentHash: itemHash(before) }]]);
    const run = (n: NormalisedEvent, venues = new Map<string, string>()) => planRun([n], state({ links, linked: new Map([[id, old]]), venues }));
    expect(run(item({ venueName: 'Doug Fir Lounge', price: 5 })).updates).toMatchObject([{ id, venueId: 'v-doug-fir' }]);
    expect(run(item({ venueName: 'Mississippi Studios' }), new Map([[venueKey('Mississippi Studios'), 'v-mississippi']])).updates).toMatchObject([{ id, venueId: 'v-mississippi' }]);
    const added = run(item({ venueName: 'The Old Church' }));
    expect(added.newVenues).toMatchObject([{ name: 'The Old Church' }]);
    expect(added.updates).toMatchObject([{ id, venueId: added.newVenues[0]!.id }]);
    expect(run(item({ venueName: '' })).updates).toMatchObject([{ id, venueId: null }]);
  });

  it("matches a linked event its source moves as a new item would be: onto another source's listing to merge, thinner evidence proposed", () => {
    const id = '00000000-0000-4000-8000-0000000000b3';
    const there = { venueName: 'Leftbank Annex', lat: 45.5297, lng: -122.6668 };
    const before = item({ ...there, start: new Date('2026-12-12T18:00:00Z') });
    const links = new Map([['x', { eventId: id, contentHash: itemHash(before) }]]);
    const moved = (n: NormalisedEvent) => planRun([n], state({ links, linked: new Map([[id, linkedTo(id, before)]]), nearby: [listed({}), listed({ id, startDate: before.start })], listedBySource: new Set([id]) }));
    // Onto the fair's time and place: to merge.
    expect(moved(item(there)).movedOnto).toEqual([{ id, onto: listed({}).id, title: 'Holiday Makers Fair' }]);
    // Onto its time with no place: a pair for admins, nothing to merge.
    const thin = moved(item({ venueName: '', lat: null, lng: null }));
    expect(thin.movedOnto).toEqual([]);
    expect(thin.pairs).toMatchObject([{ kind: 'cross_source' }]);
    // Changed in its description only, or moved where nothing is: neither.
    for (const n of [item({ ...there, start: before.start, description: 'Now with mulled cider' }), item({ ...there, start: new Date('2026-12-19T18:00:00Z') })]) {
      expect(moved(n)).toMatchObject({ movedOnto: [], pairs: [] });
    }
  });

  it('reads the neighbourhood only of listed events an item moves: a new start, title or place, not a new description', () => {
    const before = item({ venueName: 'Leftbank Annex' });
    const old = linkedTo('e', before);
    expect(listedMayMove(old, item({ venueName: 'Leftbank Annex', description: 'Now with mulled cider' }))).toBe(false);
    for (const moved of [{ start: new Date('2026-12-12T18:00:00Z') }, { title: 'Winter Makers Fair' }, { venueName: 'Eastside Hall' }, { lat: 45.5, lng: -122.6 }]) {
      expect(listedMayMove(old, item({ venueName: 'Leftbank Annex', ...moved })), JSON.stringify(moved)).toBe(true);
      // A record merged into another source's event is that event's, wherever its source puts it.
      expect(listedMayMove({ ...old, status: 'merged', mergedInto: 'f' }, item({ venueName: 'Leftbank Annex', ...moved }))).toBe(false);
    }
  });

  it('does not hide a record that would be listed inside an event that is not: the pair is proposed instead', () => {
    const mine = item({ venueName: 'Leftbank Annex', lat: 45.5297, lng: -122.6668 });
    for (const status of ['pending', 'rejected'] as const) {
      // Even where admins' decisions would merge pairs this alike.
      const plan = planRun([mine], state({ nearby: [listed({ status })], mergeThreshold: 0 }));
      expect(plan.counts).toMatchObject({ created: 1, merged: 0 });
      expect(plan.newEvents[0]).toMatchObject({ status: 'approved', mergedInto: null });
      expect(plan.announce).toEqual([{ id: plan.newEvents[0]!.id, action: 'created' }]);
      expect(plan.pairs).toHaveLength(1);
      expect(plan.pairs[0]).toMatchObject({ kind: 'cross_source', reason: `same title, place and start; kept apart, as the other ${status === 'pending' ? 'waits for review' : 'was turned down'}` });
    }
    // A record that would wait for review itself is one with the waiting event, as before.
    const unsure = planRun([mine], state({ nearby: [listed({ status: 'pending' })], classify: () => ({ category: 'Arts', confidence: 0.1 }) }));
    expect(unsure.counts).toMatchObject({ created: 0, merged: 1 });
    expect(unsure.newEvents[0]).toMatchObject({ status: 'merged', premergeStatus: 'pending' });
  });

  it('marks an event its source cancels as cancelled, and clears the mark when the source lists it again', () => {
    const id = '00000000-0000-4000-8000-0000000000c1';
    const shown = item({});
    const linked = (over: Partial<LinkedEvent>) => linkedTo(id, shown, over);
    const links = new Map([['x', { eventId: id, contentHash: itemHash(shown) }]]);
    const run = (old: LinkedEvent, n: NormalisedEvent) => planRun([n], state({ links, linked: new Map([[id, old]]) })).updates;
    const earlier = new Date('2026-11-20T00:00:00Z');

    // Listed, then cancelled: gone now, and cancelled.
    expect(run(linked({}), item({ cancelled: true }))).toMatchObject([{ id, goneAt: now, cancelledBySource: true }]);
    // Dropped from the feed earlier, then shown cancelled: still gone since then, now cancelled.
    expect(run(linked({ goneAt: earlier }), item({ cancelled: true }))).toMatchObject([{ id, goneAt: earlier, cancelledBySource: true }]);
    // Already cancelled: nothing to write.
    expect(run(linked({ goneAt: earlier, cancelledBySource: true }), item({ cancelled: true }))).toEqual([]);
    // Listed again as it was: back, and no longer cancelled.
    expect(run(linked({ goneAt: earlier, cancelledBySource: true }), shown)).toMatchObject([{ id, goneAt: null, cancelledBySource: false }]);
    // Listed again with a change: the same.
    expect(run(linked({ goneAt: earlier, cancelledBySource: true }), item({ title: 'Holiday Makers Fair (moved indoors)' }))).toMatchObject([{ id, goneAt: null, cancelledBySource: false }]);

    // News for whoever saved it: a listed event cancelled, or moved; not other changes, nor events awaiting review.
    const news = (old: LinkedEvent, n: NormalisedEvent) => planRun([n], state({ links, linked: new Map([[id, old]]) })).news;
    expect(news(linked({}), item({ cancelled: true }))).toEqual([{ id, title: shown.title, allDay: false, kind: 'cancelled', start: shown.start }]);
    expect(news(linked({ goneAt: earlier, cancelledBySource: true }), item({ cancelled: true }))).toEqual([]);
    const later = new Date('2026-12-05T19:00:00Z');
    expect(news(linked({}), item({ start: later, end: new Date('2026-12-05T21:00:00Z') }))).toEqual([{ id, title: shown.title, allDay: false, kind: 'moved', from: shown.start, to: later }]);
    expect(news(linked({}), item({ price: 5 }))).toEqual([]);
    expect(news(linked({ status: 'pending' }), item({ cancelled: true }))).toEqual([]);
    expect(news(linked({ status: 'pending' }), item({ start: later }))).toEqual([]);
    // Listed again after the source said it was cancelled: back on (at its new time, if moved too).
    expect(news(linked({ goneAt: earlier, cancelledBySource: true }), shown)).toEqual([{ id, title: shown.title, allDay: false, kind: 'relisted', start: shown.start }]);
    expect(news(linked({ goneAt: earlier, cancelledBySource: true }), item({ start: later }))).toEqual([{ id, title: shown.title, allDay: false, kind: 'relisted', start: later }]);
    // Back after only leaving the feed (which was not announced): not news either.
    expect(news(linked({ goneAt: earlier }), shown)).toEqual([]);
    expect(news(linked({ goneAt: earlier }), item({ price: 5 }))).toEqual([]);
    // A record merged into another event: that event's savers hear it, as this source's word; its move is not theirs.
    const into = '00000000-0000-4000-8000-0000000000e1';
    const merged = (over: Partial<LinkedEvent>) => linked({ status: 'merged', mergedInto: into, ...over });
    const by = state({}).source.name;
    expect(news(merged({}), item({ cancelled: true }))).toEqual([{ id: into, by, title: shown.title, allDay: false, kind: 'cancelled', start: shown.start }]);
    expect(news(merged({ goneAt: earlier, cancelledBySource: true }), shown)).toEqual([{ id: into, by, title: shown.title, allDay: false, kind: 'relisted', start: shown.start }]);
    expect(news(merged({}), item({ start: later }))).toEqual([]);
  });

  it('takes an event its source postpones out of lists, marked postponed, and lists it again when the source gives a new date', () => {
    const id = '00000000-0000-4000-8000-0000000000c3';
    const shown = item({});
    const linked = (over: Partial<LinkedEvent>) => linkedTo(id, shown, over);
    const links = new Map([['x', { eventId: id, contentHash: itemHash(shown) }]]);
    const run = (old: LinkedEvent, n: NormalisedEvent) => planRun([n], state({ links, linked: new Map([[id, old]]) }));
    const earlier = new Date('2026-11-20T00:00:00Z');
    const postponed = { goneAt: earlier, postponedBySource: true };

    // Listed, then postponed: gone now, postponed (not cancelled), counted apart, news for whoever saved it.
    const off = run(linked({}), item({ postponed: true }));
    expect(off.updates).toMatchObject([{ id, goneAt: now, cancelledBySource: false, postponedBySource: true }]);
    expect(off.counts).toMatchObject({ updated: 1, postponed: [shown.title], cancelled: [], relisted: [] });
    expect(off.announce).toEqual([{ id, action: 'updated' }]);
    expect(off.news).toEqual([{ id, title: shown.title, allDay: false, kind: 'postponed', start: shown.start }]);
    // Dropped from the feed earlier, then shown postponed: still gone since then, now postponed.
    expect(run(linked({ goneAt: earlier }), item({ postponed: true })).updates).toMatchObject([{ id, goneAt: earlier, postponedBySource: true }]);
    // Still postponed: nothing to write or say.
    expect(run(linked(postponed), item({ postponed: true }))).toMatchObject({ updates: [], news: [], counts: { updated: 0, postponed: [] } });
    // Waiting for review: marked, but no one is told.
    expect(run(linked({ status: 'pending' }), item({ postponed: true })).news).toEqual([]);
    // The source's latest word wins: postponed, then cancelled, is cancelled (and the other way round).
    const called = run(linked(postponed), item({ cancelled: true }));
    expect(called.updates).toMatchObject([{ id, goneAt: earlier, cancelledBySource: true, postponedBySource: false }]);
    expect(called.news).toEqual([{ id, title: shown.title, allDay: false, kind: 'cancelled', start: shown.start }]);
    expect(run(linked({ goneAt: earlier, cancelledBySource: true }), item({ postponed: true })).updates).toMatchObject([{ id, cancelledBySource: false, postponedBySource: true }]);

    // Listed again at a new date: back in lists, no longer marked, and savers hear it is back at that time.
    const later = new Date('2027-01-16T18:00:00Z');
    const back = run(linked(postponed), item({ start: later, end: new Date('2027-01-16T20:00:00Z') }));
    expect(back.updates).toMatchObject([{ id, startDate: later, goneAt: null, cancelledBySource: false, postponedBySource: false }]);
    expect(back.counts).toMatchObject({ updated: 1, relisted: [shown.title], postponed: [] });
    expect(back.news).toEqual([{ id, title: shown.title, allDay: false, kind: 'relisted', start: later, after: 'postponed' }]);
    // Listed again as it was (the postponement lifted): the same, at its own time.
    const same = run(linked(postponed), shown);
    expect(same.updates).toMatchObject([{ id, goneAt: null, postponedBySource: false }]);
    expect(same.news).toEqual([{ id, title: shown.title, allDay: false, kind: 'relisted', start: shown.start, after: 'postponed' }]);
  });

  it('does not list a postponed item it never listed, and counts it', () => {
    const plan = planRun([item({ externalId: 'new', title: 'Lantern Parade', postponed: true })], state({ nearby: [listed({ title: 'Lantern Parade' })] }));
    expect(plan).toMatchObject({ newEvents: [], newLinks: [], updates: [], pairs: [], announce: [], news: [] });
    expect(plan.counts).toMatchObject({ created: 0, merged: 0, rejected: 1, postponedUnlisted: ['Lantern Parade'], cancelledUnlisted: [] });
    // (Not one with the listed parade: no place on its side.) Listed events near its start are read
    // for it all the same, to find an event it may be one with; for one the source linked before, none.
    expect(slotWindows([item({ postponed: true })], () => false)).toHaveLength(1);
    expect(slotWindows([item({ postponed: true })], () => true)).toEqual([]);
  });

  it('records whether an end is given on rows stored before it was known, from the unchanged item, without calling it an update', () => {
    const id = '00000000-0000-4000-8000-0000000000c2';
    const noEnd = item({ endGiven: false });
    const links = new Map([['x', { eventId: id, contentHash: itemHash(noEnd) }]]);
    // The flag is not hashed: an item keeps the hash it had, so an admin's edits of the event stay.
    expect(itemHash(noEnd)).toBe(itemHash(item({})));
    const run = (old: LinkedEvent) => planRun([noEnd], state({ links, linked: new Map([[id, old]]) }));
    const legacy = run(linkedTo(id, noEnd, { endGiven: null, title: 'Edited by an admin' }));
    expect(legacy.updates).toMatchObject([{ id, endGiven: false, title: 'Edited by an admin', goneAt: null }]);
    expect(legacy.counts.updated).toBe(0);
    expect(legacy.announce).toEqual([]);
    // Known already: nothing to write.
    expect(run(linkedTo(id, noEnd)).updates).toEqual([]);
    // Back in the feed after leaving it: relisted, and the flag recorded with it.
    expect(run(linkedTo(id, noEnd, { endGiven: null, goneAt: new Date('2026-11-20T00:00:00Z') })).updates).toMatchObject([{ id, endGiven: false, goneAt: null }]);
  });

  it('knows an occurrence whose series moved, or an item published again under a new id with its own page, as the event it was', () => {
    const at = (iso: string) => new Date(iso);
    const links = (ids: [string, string | null][]) => new Map(ids.map(([id, url]) => [id, { url }]));
    // A weekly 6 PM series now at 7 PM (Portland): each date is the old one of its day; a date with no old one is new.
    const moved = [item({ externalId: 'knit@lib@2026-12-02T03:00:00.000Z', start: at('2026-12-02T03:00:00Z') }), item({ externalId: 'knit@lib@2026-12-09T03:00:00.000Z', start: at('2026-12-09T03:00:00Z') }), item({ externalId: 'knit@lib@2026-12-16T03:00:00.000Z', start: at('2026-12-16T03:00:00Z') })];
    const old = links([['knit@lib@2026-12-02T02:00:00.000Z', null], ['knit@lib@2026-12-09T02:00:00.000Z', null], ['other@lib@2026-12-16T02:00:00.000Z', null]]);
    expect([...reidentify(moved, old)]).toEqual([
      ['knit@lib@2026-12-02T03:00:00.000Z', 'knit@lib@2026-12-02T02:00:00.000Z'],
      ['knit@lib@2026-12-09T03:00:00.000Z', 'knit@lib@2026-12-09T02:00:00.000Z'],
    ]);
    // Two a day: each the nearest of its day, once. Another day is another date, not a move.
    const twice = [item({ externalId: 's@2026-12-02T19:00:00.000Z', start: at('2026-12-02T19:00:00Z') }), item({ externalId: 's@2026-12-02T23:00:00.000Z', start: at('2026-12-02T23:00:00Z') })];
    expect([...reidentify(twice, links([['s@2026-12-02T18:00:00.000Z', null], ['s@2026-12-02T22:00:00.000Z', null]]))].sort()).toEqual([
      ['s@2026-12-02T19:00:00.000Z', 's@2026-12-02T18:00:00.000Z'],
      ['s@2026-12-02T23:00:00.000Z', 's@2026-12-02T22:00:00.000Z'],
    ]);
    expect(reidentify([item({ externalId: 's@2026-12-04T19:00:00.000Z' })], links([['s@2026-12-02T19:00:00.000Z', null]])).size).toBe(0);
    // An id still in the run is nobody's old id.
    expect(reidentify([...twice, item({ externalId: 's@2026-12-02T18:00:00.000Z' })], links([['s@2026-12-02T18:00:00.000Z', null]])).size).toBe(0);
    // Published again under a new UID with its own page; not a page many share, nor a listing page.
    const page = 'https://library.example/events/string-quartet-1205';
    expect([...reidentify([item({ externalId: 'quartet-2026@lib', url: page })], links([['quartet@lib', page]]))]).toEqual([['quartet-2026@lib', 'quartet@lib']]);
    expect(reidentify([item({ externalId: 'a2', url: page }), item({ externalId: 'b2', url: page })], links([['a', page]])).size).toBe(0);
    expect(reidentify([item({ externalId: 'a2', url: 'https://library.example/events' })], links([['a', 'https://library.example/events']])).size).toBe(0);
  });

  it('reads windows around the slots of new items only, merged when they touch', () => {
    const items = [item({ externalId: 'a' }), item({ externalId: 'b', start: new Date('2026-12-05T18:40:00Z') }), item({ externalId: 'c', start: new Date('2026-12-09T18:00:00Z') })];
    const windows = slotWindows(items, (n) => n.externalId === 'c');
    expect(windows).toHaveLength(1);
    expect(windows[0]!.from.toISOString()).toBe('2026-12-05T17:30:00.000Z');
    expect(windows[0]!.to.toISOString()).toBe('2026-12-05T19:30:00.000Z');
  });
});
