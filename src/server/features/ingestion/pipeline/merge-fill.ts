import type { EventItemFields } from '../sources.repository.ts';

/**
 * What a merge fills on the event it keeps, where the kept record leaves it blank and a record
 * merged into it gives it (which values: `fillFromMerged` in events.mapper.ts). A group is one
 * fact (a price is its amount, range, note and freeness): a source that gives its own value of a
 * group takes the whole group back.
 */
export const FILL_GROUPS = {
  description: ['description'],
  price: ['price', 'priceMax', 'priceNote', 'isFree'],
  place: ['venueName', 'address', 'neighbourhood', 'lat', 'lng', 'geoApprox'],
  end: ['endDate', 'endGiven'],
} as const satisfies Record<string, readonly (keyof EventItemFields)[]>;

export type FillColumn = (typeof FILL_GROUPS)[keyof typeof FILL_GROUPS][number];
export const FILL_COLUMNS: readonly FillColumn[] = Object.values(FILL_GROUPS).flat();

/** The kept record's own values of the fields a merge filled (events.filled): JSON, dates as ISO text. */
export type Filled = Partial<Record<FillColumn, unknown>>;
/** Values of the filled fields, as the event row holds them. */
export type FillValues = Partial<Pick<EventItemFields, FillColumn>>;
type FillRow = Pick<EventItemFields, FillColumn>;

const toJson = (v: unknown) => (v instanceof Date ? v.toISOString() : (v ?? null));
const fromJson = (column: FillColumn, v: unknown) => (column === 'endDate' && typeof v === 'string' ? new Date(v) : v);
const same = (a: unknown, b: unknown) => toJson(a) === toJson(b);

/** The kept record's own values: the row with what a merge filled put back. */
export function ownValues<T extends FillRow & { filled: Filled }>(row: T): T {
  return { ...row, ...unfilledValues(row.filled) };
}

/**
 * What filling changes on the kept row, from its current values and what its own record filled
 * from the merged records gives (`withFill`, computed from ownValues): the new values, and `filled`
 * with the record's own value of each field that now differs from it. A field no merged record
 * fills any more (a split, a record its source dropped) gets the record's own value back.
 */
export function fillChanges(current: FillRow & { filled: Filled }, withFill: FillRow): { set: FillValues; filled: Filled } {
  const own = ownValues(current);
  const set: FillValues = {};
  const filled: Filled = {};
  for (const columns of Object.values(FILL_GROUPS)) {
    // A group filled at all keeps the record's own values of all its fields: the source's own
    // value of any of them later takes the whole group back (keepFilled).
    const differs = columns.some((c) => !same(own[c], withFill[c]));
    for (const column of columns) {
      if (!same(current[column], withFill[column])) Object.assign(set, { [column]: withFill[column] });
      if (differs) filled[column] = toJson(own[column]);
    }
  }
  return { set, filled };
}

/** `filled` without the columns an admin has just set: those are the event's own now (an edit). */
export function withoutFilled(filled: Filled, columns: readonly string[]): Filled {
  return Object.fromEntries(Object.entries(filled).filter(([c]) => !columns.includes(c)));
}

/** Whether two `filled` maps hold the same fields and values (the database keeps jsonb keys in its own order). */
export function sameFilled(a: Filled, b: Filled): boolean {
  const ka = Object.keys(a) as FillColumn[];
  return ka.length === Object.keys(b).length && ka.every((k) => k in b && same(a[k], b[k]));
}

/** The record's own values of the filled fields. */
export function unfilledValues(filled: Filled): FillValues {
  const out: FillValues = {};
  // Each value is what the row held before the merge filled it (fromJson gives dates back).
  for (const column of FILL_COLUMNS) if (column in filled) Object.assign(out, { [column]: fromJson(column, filled[column]) });
  return out;
}

/**
 * A source's changed item for an event a merge filled: a filled field stays while the source still
 * gives what it gave then (its blank); a group in which it now gives something else is its own again.
 */
export function keepFilled(item: EventItemFields, old: EventItemFields, filled: Filled): { item: EventItemFields; filled: Filled } {
  const next: Filled = {};
  const out = { ...item };
  for (const columns of Object.values(FILL_GROUPS)) {
    const mine = columns.filter((c) => c in filled);
    if (!mine.length) continue;
    if (mine.some((c) => !same(item[c], fromJson(c, filled[c])))) continue;
    for (const c of mine) {
      Object.assign(out, { [c]: old[c] });
      next[c] = filled[c];
    }
  }
  return { item: out, filled: next };
}
