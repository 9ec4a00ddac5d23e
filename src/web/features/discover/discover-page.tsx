import * as DialogPrimitive from '@radix-ui/react-dialog';
import { LayoutGrid, List, Loader2, Plus, QrCode, RefreshCw, SearchX, SlidersHorizontal, X } from 'lucide-react';
import { lazy, Suspense, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { SORTS, type SortBy } from '../../../contract/events.ts';
import { Button, buttonClass } from '../../components/ui/button.tsx';
import { useAuth } from '../auth/auth.queries.ts';
import { useRealtimeState } from '../../lib/use-realtime.ts';
import { AddEventDialog } from '../events/add-event-dialog.tsx';
import { EventCard, EventCardSkeleton } from '../events/event-card.tsx';
import { useCityConfig } from '../events/events.queries.ts';
import { useEventFacets, useEventList, useEventStats, useRecommendedEvents } from './discover.queries.ts';
import { FilterPanel } from './filter-panel.tsx';
import { RecommendedStrip } from './recommended-strip.tsx';
import { CommunityBuzz } from '../gaming/community-buzz.tsx';
import { GamingProgressWidget } from '../gaming/gaming-progress-widget.tsx';
import { LeaderboardTop } from '../gaming/leaderboard-top.tsx';
import { NewBadgeBanner } from '../gaming/new-badge-banner.tsx';
import { PointsBanner } from '../gaming/points-banner.tsx';
import { CoverageIndicator, ProductionStatus } from './production-status.tsx';
import { filterParams, listParams, useDiscoverFilters, useVisitorPosition, type DiscoverFiltersApi, type ViewMode } from './use-discover-filters.ts';

// The scanner and its decoder load only when someone opens it.
const QrScannerModal = lazy(() => import('../gaming/qr-scanner-modal.tsx').then((m) => ({ default: m.QrScannerModal })));

/** Spec section 9: six skeleton cards while loading. */
export const SKELETON_COUNT = 6;
const SORT_LABELS: Record<SortBy, string> = { relevance: 'Relevance', date: 'Date', distance: 'Distance', popularity: 'Popularity' };
const browserZone = Intl.DateTimeFormat().resolvedOptions().timeZone;

function ViewToggle({ view, onChange }: { view: ViewMode; onChange: (v: ViewMode) => void }) {
  const base = 'inline-flex h-11 w-11 items-center justify-center rounded-md transition-colors duration-150';
  return (
    <div role="group" aria-label="Layout" className="inline-flex rounded-lg border border-border bg-card p-0.5">
      <button type="button" aria-label="Grid view" aria-pressed={view === 'grid'} onClick={() => onChange('grid')} className={`${base} ${view === 'grid' ? 'bg-primary text-primary-foreground' : 'hover:bg-muted'}`}>
        <LayoutGrid className="h-4 w-4" aria-hidden />
      </button>
      <button type="button" aria-label="List view" aria-pressed={view === 'list'} onClick={() => onChange('list')} className={`${base} ${view === 'list' ? 'bg-primary text-primary-foreground' : 'hover:bg-muted'}`}>
        <List className="h-4 w-4" aria-hidden />
      </button>
    </div>
  );
}

function FiltersSheet({ open, onOpenChange, children, total, totalText }: { open: boolean; onOpenChange: (o: boolean) => void; children: ReactNode; total: number | undefined; totalText: string | undefined }) {
  return (
    <DialogPrimitive.Root open={open} onOpenChange={onOpenChange}>
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay className="fixed inset-0 z-50 bg-black/50" />
        <DialogPrimitive.Content className="fixed inset-y-0 left-0 z-50 flex w-[min(22rem,calc(100%-2rem))] flex-col bg-background shadow-xl">
          <DialogPrimitive.Title className="sr-only">Filters</DialogPrimitive.Title>
          <DialogPrimitive.Description className="sr-only">Narrow the events by category, source, date and distance.</DialogPrimitive.Description>
          {/* The close button has a bar of its own, so it covers none of the panel (its 'Clear all'). */}
          <div className="flex justify-end border-b border-border bg-card px-3 py-1">
            <DialogPrimitive.Close aria-label="Close filters" className="inline-flex h-11 w-11 items-center justify-center rounded-lg hover:bg-muted">
              <X className="h-5 w-5" aria-hidden />
            </DialogPrimitive.Close>
          </div>
          <div className="flex-1 overflow-y-auto p-3">{children}</div>
          <div className="flex gap-2 border-t border-border bg-card p-3">
            <DialogPrimitive.Close className={buttonClass('primary', 'flex-1')}>
              {total === undefined ? 'Show events' : `Show ${totalText} ${total === 1 ? 'event' : 'events'}`}
            </DialogPrimitive.Close>
          </div>
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}

function EmptyState({ api }: { api: DiscoverFiltersApi }) {
  const f = api.filters;
  const filtered = f.categories.length > 0 || f.sourceTypes !== null || f.dateRange !== null || f.radius !== null;
  return (
    <div className="flex flex-col items-center gap-2 rounded-lg border border-dashed border-border bg-card px-6 py-12 text-center">
      <SearchX className="h-10 w-10 text-muted-foreground" aria-hidden />
      <h3 className="text-lg font-semibold">No events found</h3>
      <p className="text-muted-foreground">Try adjusting your filters or search terms</p>
      {filtered && (
        <Button variant="outline" className="mt-2" onClick={api.clearFilters}>
          Clear filters
        </Button>
      )}
    </div>
  );
}

function ErrorState({ message, onRetry, retrying }: { message: string; onRetry: () => void; retrying: boolean }) {
  return (
    <div role="alert" className="flex flex-col items-center gap-2 rounded-lg border border-destructive/40 bg-card px-6 py-12 text-center">
      <h3 className="text-lg font-semibold">Events could not be loaded</h3>
      <p className="max-w-prose text-sm text-muted-foreground">Something went wrong while fetching events ({message}). Check your connection and try again.</p>
      <Button variant="outline" className="mt-2" onClick={onRetry} disabled={retrying}>
        <RefreshCw className={`h-4 w-4 ${retrying ? 'animate-spin' : ''}`} aria-hidden />
        Try again
      </Button>
    </div>
  );
}

/**
 * A banner slot above the list (points, new badge). A banner that appears after the person started
 * using the list (the first points come with the first heart) floats at the bottom of the screen
 * instead of pushing the list down under the pointer; one that was there already stays in place.
 */
function AboveTheList({ using, children }: { using: boolean; children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  const [floating, setFloating] = useState(false);
  useLayoutEffect(() => {
    if (using && !floating && ref.current && ref.current.offsetHeight === 0) setFloating(true);
  }, [using, floating]);
  return (
    <div ref={ref} data-floating={floating || undefined} className={floating ? 'fixed bottom-3 right-3 z-40 w-[min(28rem,calc(100%-1.5rem))] shadow-lg [&>*]:mb-0' : undefined}>
      {children}
    </div>
  );
}

const gridClass = (view: ViewMode) => (view === 'grid' ? 'grid gap-4 sm:grid-cols-2 xl:grid-cols-3' : 'flex flex-col gap-3');

/** The Discover home (spec section 2): filters on the left, the events on the right. */
export default function DiscoverPage() {
  const { user } = useAuth();
  const api = useDiscoverFilters();
  const { filters } = api;
  const { data: config } = useCityConfig();
  const position = useVisitorPosition(filters.radius !== null || filters.sortBy === 'distance');
  const [sheetOpen, setSheetOpen] = useState(false);
  const [qrOpen, setQrOpen] = useState(false);
  const [addOpen, setAddOpen] = useState(false);
  // Once the person presses anything in the main column, nothing new may push it down.
  const [using, setUsing] = useState(false);

  const ctx = useMemo(() => ({ now: api.now, timeZone: config?.city.timeZone ?? browserZone, position }), [api.now, config?.city.timeZone, position]);
  const facetQuery = useMemo(() => filterParams(filters, ctx).toString(), [filters, ctx]);
  const listQuery = useMemo(() => listParams(filters, ctx).toString(), [filters, ctx]);
  // Every source type unchecked: nothing can match, so nothing is asked for.
  const nothingSelected = filters.sourceTypes !== null && filters.sourceTypes.length === 0;

  const list = useEventList(listQuery, !nothingSelected);
  const facets = useEventFacets(facetQuery);
  // The same call with no filter: which source types this city has events from at all (the
  // panel lists only those). With no filter set it is the query above, fetched once.
  const cityFacets = useEventFacets('');
  const stats = useEventStats();
  const recommended = useRecommendedEvents(Boolean(user));

  const events = useMemo(() => list.data?.pages.flatMap((p) => p.events) ?? [], [list.data]);
  const total = nothingSelected ? 0 : list.data?.pages[0]?.total;
  // "about 12,000" when the server estimated a broad filter's total.
  const totalText = total === undefined ? undefined : `${list.data?.pages[0]?.estimated && !nothingSelected ? 'about ' : ''}${total.toLocaleString('en-US')}`;
  const initialLoading = !nothingSelected && list.isPending;
  // New filters: the previous results stay (dimmed) until the new ones arrive. Background refreshes do not dim.
  const updating = list.isPlaceholderData;
  const view = filters.view;

  const panel = (
    <FilterPanel
      api={api}
      facets={facets.data}
      facetsLoading={facets.isPending}
      available={cityFacets.data}
      availableLoading={cityFacets.isPending}
      distanceUnit={config?.city.distanceUnit}
    />
  );

  return (
    <div>
      <AboveTheList using={using}>
        <NewBadgeBanner />
      </AboveTheList>
      <AboveTheList using={using}>
        <PointsBanner />
      </AboveTheList>

      <div className="grid gap-6 lg:grid-cols-[18rem_minmax(0,1fr)]">
        <aside aria-label="Filters and status" className="order-2 flex flex-col gap-4 lg:order-1">
          <div className="hidden lg:block">{panel}</div>
          {user && <GamingProgressWidget />}
          <CoverageIndicator />
          <ProductionStatus />
          {user && <CommunityBuzz />}
          {user && <LeaderboardTop />}
        </aside>

        <div className="order-1 min-w-0 lg:order-2" onPointerDownCapture={() => setUsing(true)}>
          <div className="mb-6 flex flex-wrap items-end justify-between gap-4">
            <div>
              <h1 className="text-3xl font-bold">Discover Events</h1>
              <div className="mt-1 flex flex-wrap items-center gap-2 text-sm text-muted-foreground">
                {stats.data ? (
                  <span data-testid="today-count">
                    {stats.data.todayEvents.toLocaleString('en-US')} {stats.data.todayEvents === 1 ? 'event' : 'events'} today
                  </span>
                ) : (
                  <span className="inline-block h-4 w-28 animate-pulse rounded bg-muted" aria-hidden />
                )}
                <LiveUpdatesTag />
              </div>
            </div>
            <div className="flex flex-wrap items-center gap-2">
              <Button variant="outline" onClick={() => setQrOpen(true)} aria-haspopup="dialog">
                <QrCode className="h-4 w-4" aria-hidden />
                Scan QR
              </Button>
              {user && (
                // A member's way to add an event no source lists: its page's link, checked by an admin.
                <Button variant="outline" onClick={() => setAddOpen(true)} aria-haspopup="dialog">
                  <Plus className="h-4 w-4" aria-hidden />
                  Add an event
                </Button>
              )}
              <Button variant="outline" className="lg:hidden" onClick={() => setSheetOpen(true)} aria-haspopup="dialog">
                <SlidersHorizontal className="h-4 w-4" aria-hidden />
                Filters
              </Button>
              <label className="flex items-center gap-2 text-sm font-medium">
                Sort by
                <select
                  value={filters.sortBy}
                  onChange={(e) => api.setSortBy(e.target.value as SortBy)}
                  className="min-h-11 rounded-lg border border-border bg-card px-3 text-sm"
                >
                  {SORTS.map((s) => (
                    <option key={s} value={s}>
                      {SORT_LABELS[s]}
                    </option>
                  ))}
                </select>
              </label>
              <ViewToggle view={view} onChange={api.setView} />
            </div>
          </div>

          {/* Reserved from the first render for signed-in users, at a fixed height: it never moves the list. */}
          {user && <RecommendedStrip items={recommended.data} isPending={recommended.isPending} isError={recommended.isError} />}

          <section aria-labelledby="all-events-heading" aria-busy={initialLoading || updating}>
            <div className="mb-3 flex flex-wrap items-baseline justify-between gap-2">
              <div className="flex flex-wrap items-baseline gap-x-2">
                <h2 id="all-events-heading" aria-describedby="all-events-note" className="text-xl font-bold">
                  All Events{totalText !== undefined ? ` (${totalText})` : ''}
                </h2>
                {/* The total counts listings: a recurring series is one card, so it counts once. */}
                <p id="all-events-note" className="text-xs text-muted-foreground">
                  A recurring series counts once
                </p>
              </div>
              {filters.search && (
                <p className="text-sm text-muted-foreground">
                  Results for <q className="font-medium text-foreground">{filters.search}</q>
                </p>
              )}
            </div>
            <p className="sr-only" aria-live="polite">
              {total === undefined ? '' : `${totalText} ${total === 1 ? 'event' : 'events'} found`}
            </p>

            {initialLoading ? (
              <div role="status" aria-label="Loading events" className={gridClass(view)}>
                {Array.from({ length: SKELETON_COUNT }, (_, i) => (
                  <EventCardSkeleton key={i} variant={view} />
                ))}
              </div>
            ) : list.isError && !list.data ? (
              <ErrorState message={list.error.message} onRetry={() => void list.refetch()} retrying={list.isFetching} />
            ) : events.length === 0 ? (
              <EmptyState api={api} />
            ) : (
              <>
                <div className={`${gridClass(view)} transition-opacity duration-200 ${updating ? 'opacity-60' : ''}`} data-testid="event-results">
                  {events.map((e) => (
                    <EventCard key={e.id} event={e} variant={view} />
                  ))}
                </div>
                {list.isFetchNextPageError && (
                  <p role="alert" className="mt-4 text-center text-sm text-destructive">
                    More events could not be loaded. Try again.
                  </p>
                )}
                {list.hasNextPage && (
                  <div className="mt-6 flex justify-center">
                    <Button variant="outline" onClick={() => void list.fetchNextPage()} disabled={list.isFetchingNextPage} aria-busy={list.isFetchingNextPage}>
                      {list.isFetchingNextPage && <Loader2 className="h-4 w-4 animate-spin" aria-hidden />}
                      Load More Events
                    </Button>
                  </div>
                )}
              </>
            )}
          </section>
        </div>
      </div>

      <FiltersSheet open={sheetOpen} onOpenChange={setSheetOpen} total={total} totalText={totalText}>
        {panel}
      </FiltersSheet>
      {user && <AddEventDialog open={addOpen} onOpenChange={setAddOpen} />}
      {qrOpen && (
        <Suspense fallback={null}>
          <QrScannerModal open={qrOpen} onOpenChange={setQrOpen} />
        </Suspense>
      )}
    </div>
  );
}

/** The /ws connection's real state: a pulsing 'Live Updates' only while connected. */
function LiveUpdatesTag() {
  const state = useRealtimeState();
  if (state === 'connected') {
    return (
      <span data-testid="live-updates" data-state={state} className="inline-flex items-center gap-1.5 rounded-full bg-success-soft px-2.5 py-0.5 text-xs font-semibold text-success">
        <span className="h-2 w-2 animate-pulse rounded-full bg-success motion-reduce:animate-none" aria-hidden />
        Live Updates
      </span>
    );
  }
  const label = state === 'disconnected' ? 'Offline' : state === 'reconnecting' ? 'Reconnecting…' : 'Connecting…';
  return (
    <span data-testid="live-updates" data-state={state} className="inline-flex items-center gap-1.5 rounded-full bg-muted px-2.5 py-0.5 text-xs font-semibold text-muted-foreground">
      <span className="h-2 w-2 rounded-full bg-muted-foreground" aria-hidden />
      {label}
    </span>
  );
}
