import type { CityConfig } from '../../../../contract/city.ts';
import { zonedDayBounds } from '../../../../contract/time.ts';
import { haversineM } from '../../../lib/geo.ts';
import { htmlToText, withoutControl } from '../../../lib/text.ts';
import type { CandidateEvent } from '../ingestion.types.ts';
import { priceFromText } from './price.ts';

export const DEFAULT_DURATION_MS = 2 * 3600 * 1000;
/**
 * One-off events are listed up to two years ahead (festivals are announced a year or more
 * before). The shorter recurrence horizon of the connectors only bounds how far a rule is
 * expanded, never which announced events are kept.
 */
export const LISTING_HORIZON_DAYS = 730;
const MAX_TITLE = 300;
const MAX_DESCRIPTION = 20_000;
/** Above this a source's price is a mistake (and the column holds at most 8 digits before the point). */
const MAX_PRICE = 100_000;

/** A candidate made safe and complete enough to store. */
export interface NormalisedEvent {
  externalId: string;
  title: string;
  description: string;
  url: string | null;
  imageUrl: string | null;
  start: Date;
  /** The source's end, or a default one (see `endGiven`) so the event is listed until then. */
  end: Date;
  /** False when the source gave no end and `end` was filled in; not hashed, so items keep their hash. */
  endGiven: boolean;
  allDay: boolean;
  timeZone: string;
  venueName: string;
  address: string | null;
  neighbourhood: string | null;
  lat: number | null;
  lng: number | null;
  /** True when lat/lng are only the neighbourhood's centre, not the venue's own position. */
  geoApprox: boolean;
  /** The lowest price; null when free or unknown. */
  price: number | null;
  /** The highest price, when the source or its text gives a range. */
  priceMax: number | null;
  /** How the price is meant ('at the door', 'suggested donation', 'with RSVP'...). */
  priceNote: string | null;
  /** Only when the source or its text says so: no price is not the same as free. */
  isFree: boolean;
  categories: string[];
  attendeeCount: number;
  cancelled: boolean;
  /** Postponed with no new date yet; an item that says it is cancelled too is cancelled. */
  postponed: boolean;
}

const TRACKING = /^(utm_[a-z]+|fbclid|gclid|mc_cid|mc_eid|ref|ref_src)$/i;

/** http(s) URLs only, without tracking parameters or fragments; anything else is dropped. */
export function canonicalUrl(raw: string | undefined | null): string | null {
  if (!raw) return null;
  try {
    const u = new URL(raw.trim());
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
    u.hash = '';
    for (const key of [...u.searchParams.keys()]) if (TRACKING.test(key)) u.searchParams.delete(key);
    u.hostname = u.hostname.toLowerCase();
    return u.toString().slice(0, 2000);
  } catch {
    return null;
  }
}

const tidy = (s: string | undefined | null) => htmlToText(s ?? '').replace(/\s+/g, ' ').trim();

/** A source's tag that says the event is free (Gancio and calendars tag them so). */
const FREE_TAG = /^(free|free event|free admission|free entry|gratis|kostenlos|gratuit)$/i;

const money = (n: number | null | undefined): number | null =>
  typeof n === 'number' && Number.isFinite(n) && n >= 0 && n <= MAX_PRICE ? Math.round(n * 100) / 100 : null;

/**
 * The price of a candidate: the source's own fields first (price, priceMax, isFree), else what
 * its title and description say ("$5 at the door", "Tickets $12-15", "free with RSVP"). Free only
 * when the source or the text says so. The text's note and range are kept when they agree
 * with the source's price.
 */
export function resolvePrice(c: CandidateEvent, title: string, description: string): { price: number | null; priceMax: number | null; priceNote: string | null; isFree: boolean } {
  const text = priceFromText(`${title}. ${description.slice(0, 3000)}`);
  const sourceNote = withoutControl(c.priceNote ?? '').trim().toLowerCase().slice(0, 60) || null;
  const price = money(c.price);
  const priceMax = money(c.priceMax);
  const tagged = (c.categories ?? []).some((t) => FREE_TAG.test(t.trim()));
  if (c.isFree === true || (price === 0 && !(priceMax && priceMax > 0)) || (price === null && c.isFree === undefined && tagged)) {
    return { price: null, priceMax: null, priceNote: sourceNote ?? (text.isFree ? text.note : null), isFree: true };
  }
  if (price !== null) {
    const agrees = text.isFree !== true && (text.price === null || text.price === price);
    const max = priceMax !== null && priceMax > price ? priceMax : agrees && text.price === price && text.priceMax !== null ? text.priceMax : null;
    return { price, priceMax: max, priceNote: sourceNote ?? (agrees ? text.note : null), isFree: false };
  }
  // The source gave no price: the text, unless the source said it is not free and the text says it is.
  if (text.isFree === true && c.isFree !== false) return { price: null, priceMax: null, priceNote: sourceNote ?? text.note, isFree: true };
  return { price: money(text.price), priceMax: money(text.priceMax), priceNote: sourceNote ?? (text.isFree === true ? null : text.note), isFree: false };
}

/** Words naming a kind of street: "SE Hawthorne Blvd" is a street, not the Hawthorne neighbourhood. */
const STREET_TYPE = String.raw`\s+(?:st|street|ave|avenue|blvd|boulevard|rd|road|dr|drive|way|hwy|highway|pkwy|parkway|ln|lane|pl|ct|court|ter|terrace)\b`;
const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** Each city's neighbourhood names as patterns, made once (a run normalises thousands of items). */
const namePatterns = new WeakMap<CityConfig, RegExp[]>();
const patternsOf = (city: CityConfig) => {
  let p = namePatterns.get(city);
  if (!p) namePatterns.set(city, (p = city.neighbourhoods.map((n) => new RegExp(`${escapeRegExp(n.name)}(?!${STREET_TYPE})`, 'i'))));
  return p;
};

/**
 * The neighbourhood a place is in: by name in its text, else the nearest centre within 3 km. A
 * name that is a street's ("SE Division St") does not count: long streets cross several
 * neighbourhoods, so without coordinates such a place has none.
 */
export function findNeighbourhood(city: CityConfig, text: string, lat: number | null, lng: number | null) {
  const patterns = patternsOf(city);
  const byName = city.neighbourhoods.find((_, i) => patterns[i]!.test(text));
  if (byName) return byName;
  if (lat === null || lng === null) return undefined;
  let best: { n: CityConfig['neighbourhoods'][number]; d: number } | undefined;
  for (const n of city.neighbourhoods) {
    const d = haversineM(lat, lng, n.lat, n.lng);
    if (!best || d < best.d) best = { n, d };
  }
  return best && best.d <= 3000 ? best.n : undefined;
}

type VenuePlace = { lat: number | null; lng: number | null; address: string | null; neighbourhood: string | null };
export type KnownVenues = Map<string, VenuePlace>;
export const venueKey = (name: string) => name.toLowerCase().replace(/[^a-z0-9]+/g, ' ').trim();
/** The venues Townbeat knows (the venues table), by venueKey of their names. */
export const knownVenues = (rows: readonly (VenuePlace & { name: string })[]): KnownVenues => new Map(rows.map((v) => [venueKey(v.name), v]));

/** Where an event is: what normalise and every hand-made event (admin, member's correction) store. */
export interface Place {
  address: string | null;
  neighbourhood: string | null;
  lat: number | null;
  lng: number | null;
  /** True when lat/lng are only the neighbourhood's centre, not the venue's own position. */
  geoApprox: boolean;
}

/**
 * The place of an event from what it gives: coordinates its own, else its known venue's, else its
 * neighbourhood's centre; the neighbourhood the one someone named (`neighbourhood`), else
 * findNeighbourhood's from its venue, address and known venue, else its known venue's.
 */
export function placeOf(
  city: CityConfig,
  venues: KnownVenues,
  given: { venueName: string; address: string | null; lat: number | null; lng: number | null; neighbourhood?: string | null },
): Place {
  let { lat, lng } = given;
  const known = given.venueName ? venues.get(venueKey(given.venueName)) : undefined;
  if ((lat === null || lng === null) && known?.lat != null && known.lng != null) {
    lat = known.lat;
    lng = known.lng;
  }
  const named = given.neighbourhood ? city.neighbourhoods.find((n) => n.name.toLowerCase() === given.neighbourhood!.toLowerCase()) : undefined;
  const place = named ?? findNeighbourhood(city, `${given.venueName} ${given.address ?? ''} ${known?.neighbourhood ?? ''}`, lat, lng);
  let geoApprox = false;
  // A neighbourhood named that is not one of the city's: no other one's centre stands for it.
  if ((lat === null || lng === null) && place && (named || !given.neighbourhood)) {
    lat = place.lat;
    lng = place.lng;
    geoApprox = true;
  }
  // A named neighbourhood of the city is spelt as the city spells it.
  return { address: given.address ?? known?.address ?? null, neighbourhood: named?.name || given.neighbourhood || place?.name || known?.neighbourhood || null, lat, lng, geoApprox };
}

/**
 * What a stored event's place becomes when its venue is corrected by hand (an admin's edit, a
 * member's correction of a scan): derived again by placeOf from the new venue, its own coordinates
 * and address kept (not those it took from the old venue, nor a neighbourhood's centre), and a
 * neighbourhood an admin set kept. What the new venue cannot tell stays as it was. Only the
 * columns that change.
 */
export function placeAfterVenueChange(
  city: CityConfig,
  venues: KnownVenues,
  e: Place & { venueName: string; neighbourhoodSet: boolean },
  venueName: string,
): Partial<Place> {
  const old = e.venueName ? venues.get(venueKey(e.venueName)) : undefined;
  const ownPosition = !e.geoApprox && e.lat !== null && e.lng !== null && !(old && old.lat === e.lat && old.lng === e.lng);
  const ownAddress = e.address !== null && e.address !== old?.address;
  const p = placeOf(city, venues, {
    venueName,
    address: ownAddress ? e.address : null,
    lat: ownPosition ? e.lat : null,
    lng: ownPosition ? e.lng : null,
    neighbourhood: e.neighbourhoodSet ? e.neighbourhood : null,
  });
  const next: Place = {
    ...(p.lat !== null && p.lng !== null ? { lat: p.lat, lng: p.lng, geoApprox: p.geoApprox } : { lat: e.lat, lng: e.lng, geoApprox: e.geoApprox }),
    address: p.address ?? e.address,
    neighbourhood: p.neighbourhood ?? e.neighbourhood,
  };
  return Object.fromEntries(Object.entries(next).filter(([k, v]) => e[k as keyof Place] !== v));
}

/** What a venue first met through this event knows of its place (a neighbourhood's centre is no venue's position). */
export const venuePlaceOf = (n: NormalisedEvent) => ({ address: n.address, neighbourhood: n.neighbourhood, lat: n.geoApprox ? null : n.lat, lng: n.geoApprox ? null : n.lng });

/**
 * Normalises a candidate: safe text, times (default duration, all-day to the end of the day),
 * price and free detection, canonical URLs, venue, and coordinates from the source, else a
 * known venue, else the neighbourhood's centre. Returns a reason string when it must be refused.
 */
export function normalise(c: CandidateEvent, ctx: { city: CityConfig; now: Date; venues: KnownVenues }): NormalisedEvent | string {
  const title = tidy(c.title).slice(0, MAX_TITLE);
  if (!title) return 'no title';
  if (!(c.start instanceof Date) || Number.isNaN(c.start.getTime())) return 'no valid start';
  const timeZone = c.timeZone ?? ctx.city.timeZone;
  let end = c.end && !Number.isNaN(c.end.getTime()) && c.end >= c.start ? c.end : undefined;
  const endGiven = end !== undefined;
  if (!end) end = c.allDay ? zonedDayBounds(c.start, timeZone).end : new Date(c.start.getTime() + DEFAULT_DURATION_MS);
  if (end <= ctx.now) return 'already ended';
  if (c.start.getTime() > ctx.now.getTime() + LISTING_HORIZON_DAYS * 86_400_000) return 'beyond the horizon';

  const description = htmlToText(c.description ?? '').slice(0, MAX_DESCRIPTION);
  const venueName = tidy(c.venueName).slice(0, 300);
  const address = tidy(c.address).slice(0, 500) || null;
  let lat = Number.isFinite(c.lat) ? (c.lat as number) : null;
  let lng = Number.isFinite(c.lng) ? (c.lng as number) : null;
  if (lat !== null && (lat < -90 || lat > 90)) lat = null;
  if (lng !== null && (lng < -180 || lng > 180)) lng = null;
  const place = placeOf(ctx.city, ctx.venues, { venueName, address, lat, lng });

  const { price, priceMax, priceNote, isFree } = resolvePrice(c, title, description);

  return {
    externalId: withoutControl(c.externalId || canonicalUrl(c.url) || `${title}@${c.start.toISOString()}`).slice(0, 500),
    title,
    description,
    url: canonicalUrl(c.url),
    imageUrl: canonicalUrl(c.imageUrl),
    start: c.start,
    end,
    endGiven,
    allDay: Boolean(c.allDay),
    timeZone,
    venueName,
    ...place,
    price,
    priceMax,
    priceNote,
    isFree,
    categories: (c.categories ?? []).map((x) => tidy(x)).filter(Boolean).slice(0, 20),
    attendeeCount: Number.isInteger(c.attendeeCount) && (c.attendeeCount as number) >= 0 ? (c.attendeeCount as number) : 0,
    cancelled: Boolean(c.cancelled),
    postponed: Boolean(c.postponed) && !c.cancelled,
  };
}
