import { useId } from 'react';
import { CATEGORIES, OFFERED_SOURCE_TYPES, type EventFacets } from '../../../contract/events.ts';
import { categoryStyle } from '../events/event-card.tsx';
import { RADIUS_DEFAULT, RADIUS_MAX, RADIUS_MIN, type DateRange, type DiscoverFiltersApi } from './use-discover-filters.ts';

const DATE_OPTIONS: { value: DateRange | null; label: string }[] = [
  { value: null, label: 'Any time' },
  { value: 'today', label: 'Today' },
  { value: 'week', label: 'This week' },
  { value: 'month', label: 'This month' },
  { value: 'custom', label: 'Custom' },
];

/** Categories in the panel: the seven of the contract, plus 'Other' when some event has it. */
export function categoryOptions(facets: EventFacets | undefined): string[] {
  const extra = (facets?.categories ?? []).filter((c) => c.count > 0 && !(CATEGORIES as readonly string[]).includes(c.value)).map((c) => c.value);
  return [...CATEGORIES, ...extra.sort()];
}

/**
 * Source types in the panel: those with upcoming events in this city (`available`, the facets of
 * no filter), the spec's order first and any other kind after; plus any selected in the URL, so a
 * source that has run out of events can still be unchecked. Unknown (not loaded, or failed): the
 * spec's four.
 */
export function sourceTypeOptions(available: EventFacets | undefined, selected: string[] | null): string[] {
  const order: readonly string[] = OFFERED_SOURCE_TYPES;
  const present = new Set(available ? available.sourceTypes.filter((s) => s.count > 0).map((s) => s.value) : order);
  for (const s of selected ?? []) present.add(s);
  return [...order.filter((s) => present.has(s)), ...[...present].filter((s) => !order.includes(s)).sort()];
}

/** A distance with its unit, singular or plural: '1 mile', '10 miles', '1 km'. */
export function formatDistance(n: number, unit: 'mi' | 'km'): string {
  if (unit === 'km') return `${n} km`;
  return `${n} ${n === 1 ? 'mile' : 'miles'}`;
}

/**
 * The next source-type selection after a box changes. No filter (null) means every box is
 * checked; checking the last unchecked box returns to no filter.
 */
export function toggleSourceType(selected: string[] | null, options: string[], value: string, checked: boolean): string[] | null {
  const current = selected ?? options;
  const next = checked ? [...new Set([...current, value])] : current.filter((s) => s !== value);
  return options.every((o) => next.includes(o)) ? null : next;
}

function SkeletonRows({ count }: { count: number }) {
  return (
    <div aria-hidden>
      {Array.from({ length: count }, (_, i) => (
        <div key={i} className="flex min-h-11 items-center gap-3 px-2">
          <span className="h-4 w-4 rounded bg-muted" />
          <span className="h-4 w-20 animate-pulse rounded bg-muted" />
        </div>
      ))}
    </div>
  );
}

/** A facet count; past a thousand events the server estimates it, and it reads "≈1,200" ("about 1,200"). */
function Count({ value, loading, estimated = false }: { value: number | undefined; loading: boolean; estimated?: boolean }) {
  if (loading && value === undefined) return <span className="ml-auto h-4 w-6 animate-pulse rounded bg-muted" aria-hidden />;
  const n = (value ?? 0).toLocaleString('en-US');
  return (
    <span className="ml-auto rounded-full bg-muted px-2 text-xs tabular-nums text-muted-foreground" title={estimated ? `about ${n}` : undefined}>
      {estimated ? `≈${n}` : n}
    </span>
  );
}

/** A custom range's day ('2026-12-05') as 'Dec 5', or 'Dec 5, 2027' when it is not in this year. */
const dayLabel = (day: string) =>
  new Date(`${day}T12:00:00Z`).toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC', ...(day.slice(0, 4) === String(new Date().getFullYear()) ? {} : { year: 'numeric' }) });

/** While the city's source types load: none known yet (the selected ones still show). */
const NO_FACETS: EventFacets = { categories: [], sourceTypes: [], total: 0, estimated: false };

const boxRow = 'flex min-h-11 cursor-pointer items-center gap-3 rounded-md px-2 text-sm hover:bg-muted';
const legend = 'mb-1 text-sm font-semibold';

/** The Discover filter panel (spec section 2): categories and source types with live counts, date range, distance. */
export function FilterPanel({
  api,
  facets,
  facetsLoading,
  available,
  availableLoading = false,
  distanceUnit = 'mi',
  headingId,
}: {
  api: DiscoverFiltersApi;
  /** Counts for the current filters (each facet leaves its own filter out). */
  facets: EventFacets | undefined;
  facetsLoading: boolean;
  /** Counts with no filter: which source types this city has events from. */
  available?: EventFacets | undefined;
  availableLoading?: boolean;
  distanceUnit?: 'mi' | 'km';
  headingId?: string;
}) {
  const { filters } = api;
  const uid = useId();
  const categoryCounts = new Map((facets?.categories ?? []).map((c) => [c.value, c.count]));
  const sourceCounts = new Map((facets?.sourceTypes ?? []).map((c) => [c.value, c.count]));
  const sources = sourceTypeOptions(availableLoading ? NO_FACETS : available, filters.sourceTypes);
  const active =
    filters.categories.length > 0 || filters.sourceTypes !== null || filters.dateRange !== null || filters.radius !== null;
  const radius = filters.radius ?? RADIUS_DEFAULT;

  return (
    <section aria-labelledby={headingId ?? `${uid}-heading`} className="rounded-lg border border-border bg-card p-4 shadow-sm">
      <div className="mb-3 flex items-center justify-between gap-2">
        <h2 id={headingId ?? `${uid}-heading`} className="text-lg font-bold">
          Filters
        </h2>
        {active && (
          <button type="button" onClick={api.clearFilters} className="min-h-11 rounded-md px-2 text-sm font-medium text-primary hover:underline">
            Clear all
          </button>
        )}
      </div>

      <fieldset className="mb-4">
        <legend className={legend}>Categories</legend>
        {categoryOptions(facets).map((c) => {
          const checked = filters.categories.includes(c);
          return (
            <label key={c} className={boxRow}>
              <input
                type="checkbox"
                className="h-4 w-4 accent-[var(--primary)]"
                checked={checked}
                onChange={(e) => api.setCategories(e.target.checked ? [...filters.categories, c] : filters.categories.filter((x) => x !== c))}
              />
              <span className="h-2.5 w-2.5 rounded-full" style={{ backgroundColor: categoryStyle(c).color }} aria-hidden />
              <span>{c}</span>
              <Count value={categoryCounts.get(c)} loading={facetsLoading} estimated={facets?.estimated} />
            </label>
          );
        })}
      </fieldset>

      <fieldset className="mb-4">
        <legend className={legend}>Source types</legend>
        {availableLoading && sources.length === 0 && <SkeletonRows count={3} />}
        {!availableLoading && sources.length === 0 && <p className="px-2 py-2 text-sm text-muted-foreground">No events from any source yet.</p>}
        {sources.map((s) => {
          const checked = filters.sourceTypes === null || filters.sourceTypes.includes(s);
          return (
            <label key={s} className={boxRow}>
              <input
                type="checkbox"
                className="h-4 w-4 accent-[var(--primary)]"
                checked={checked}
                onChange={(e) => api.setSourceTypes(toggleSourceType(filters.sourceTypes, sources, s, e.target.checked))}
              />
              <span>{s}</span>
              <Count value={sourceCounts.get(s)} loading={facetsLoading} estimated={facets?.estimated} />
            </label>
          );
        })}
      </fieldset>

      <fieldset className="mb-4">
        <legend className={legend}>Date range</legend>
        {DATE_OPTIONS.map((o) => (
          <label key={o.label} className={boxRow}>
            <input
              type="radio"
              name={`${uid}-date-range`}
              className="h-4 w-4 accent-[var(--primary)]"
              checked={filters.dateRange === o.value}
              onChange={() => api.setDateRange(o.value)}
            />
            <span>{o.label}</span>
          </label>
        ))}
        {filters.dateRange === 'custom' && (
          <div className="mt-2 grid grid-cols-2 gap-2">
            <label className="grid gap-1 text-xs font-medium">
              From
              <input
                type="date"
                value={filters.startDate}
                max={filters.endDate || undefined}
                onChange={(e) => api.setCustomDate('startDate', e.target.value)}
                className="min-h-11 rounded-md border border-border bg-background px-2 text-sm"
              />
            </label>
            <label className="grid gap-1 text-xs font-medium">
              To
              <input
                type="date"
                value={filters.endDate}
                min={filters.startDate || undefined}
                onChange={(e) => api.setCustomDate('endDate', e.target.value)}
                className="min-h-11 rounded-md border border-border bg-background px-2 text-sm"
              />
            </label>
            {filters.startDate && filters.endDate && filters.startDate > filters.endDate && (
              // Typed past the min/max hints: the list shows the days between the two, said so.
              <p role="status" className="col-span-2 text-xs text-accent" data-testid="custom-dates-swapped">
                From is after To: showing {dayLabel(filters.endDate)} to {dayLabel(filters.startDate)}.
              </p>
            )}
          </div>
        )}
      </fieldset>

      <div>
        <div className="mb-1 flex items-center justify-between gap-2">
          <label htmlFor={`${uid}-distance`} className="text-sm font-semibold">
            Distance
          </label>
          <output htmlFor={`${uid}-distance`} className="text-sm text-muted-foreground" aria-live="polite">
            {filters.radius === null ? 'Any distance' : formatDistance(filters.radius, distanceUnit)}
          </output>
        </div>
        <input
          id={`${uid}-distance`}
          type="range"
          min={RADIUS_MIN}
          max={RADIUS_MAX}
          step={1}
          value={radius}
          aria-valuetext={filters.radius === null ? `Any distance (slide to limit, ${formatDistance(RADIUS_DEFAULT, distanceUnit)})` : formatDistance(radius, distanceUnit)}
          onChange={(e) => api.setRadius(Number(e.target.value))}
          // No limit yet: the thumb rests where sliding starts, shown as not in use.
          className={`h-11 w-full accent-[var(--primary)]${filters.radius === null ? ' opacity-50 grayscale' : ''}`}
          data-in-use={filters.radius !== null}
        />
        <div className="flex items-center justify-between text-xs text-muted-foreground">
          <span>{formatDistance(RADIUS_MIN, distanceUnit)}</span>
          {filters.radius !== null ? (
            <button type="button" onClick={() => api.setRadius(null)} className="min-h-11 px-2 font-medium text-primary hover:underline">
              Any distance
            </button>
          ) : (
            <span>from you, or the city centre</span>
          )}
          <span>{formatDistance(RADIUS_MAX, distanceUnit)}</span>
        </div>
      </div>
    </section>
  );
}
