import { LayoutGrid, List, Plus, RefreshCw, Search, SearchX, Sparkles } from 'lucide-react';
import { useState } from 'react';
import type { Vendor, VendorCategory } from '../../../contract/vendors.ts';
import { Button } from '../../components/ui/button.tsx';
import { useAuth } from '../auth/auth.queries.ts';
import { useDebounced } from './use-debounced.ts';
import { VendorCard, VendorCardSkeleton } from './vendor-card.tsx';
import { VendorFormDialog } from './vendor-form-dialog.tsx';
import { useVendorList } from './vendors.queries.ts';

type View = 'grid' | 'list';
const SKELETONS = 6;
export const EMPTY_TEXT = 'No vendors found matching your criteria.';

function ViewToggle({ view, onChange }: { view: View; onChange: (v: View) => void }) {
  const base = 'inline-flex h-11 w-11 items-center justify-center rounded-md transition-colors duration-150';
  return (
    <div role="group" aria-label="Layout" className="inline-flex shrink-0 rounded-lg border border-border bg-card p-0.5">
      <button type="button" aria-label="Grid view" aria-pressed={view === 'grid'} onClick={() => onChange('grid')} className={`${base} ${view === 'grid' ? 'bg-primary text-primary-foreground' : 'hover:bg-muted'}`}>
        <LayoutGrid className="h-4 w-4" aria-hidden />
      </button>
      <button type="button" aria-label="List view" aria-pressed={view === 'list'} onClick={() => onChange('list')} className={`${base} ${view === 'list' ? 'bg-primary text-primary-foreground' : 'hover:bg-muted'}`}>
        <List className="h-4 w-4" aria-hidden />
      </button>
    </div>
  );
}

function CategoryFilter({ value, onChange, categories, total }: { value: VendorCategory | 'all'; onChange: (v: VendorCategory | 'all') => void; categories: { id: VendorCategory; name: string; count: number }[]; total: number | undefined }) {
  const chip = (on: boolean) =>
    `inline-flex min-h-11 items-center gap-1.5 whitespace-nowrap rounded-full border px-4 text-sm font-medium transition-colors duration-150 ${on ? 'border-primary bg-primary text-primary-foreground' : 'border-border bg-card hover:bg-muted'}`;
  const count = (n: number | undefined) => (n === undefined ? null : <span className="text-xs">({n})</span>);
  return (
    <div role="group" aria-label="Category" className="-mx-1 flex gap-2 overflow-x-auto px-1 pb-1">
      <button type="button" aria-pressed={value === 'all'} onClick={() => onChange('all')} className={chip(value === 'all')}>
        All {count(total)}
      </button>
      {categories.map((c) => (
        <button key={c.id} type="button" aria-pressed={value === c.id} onClick={() => onChange(c.id)} className={chip(value === c.id)} data-category={c.id}>
          {c.name} {count(c.count)}
        </button>
      ))}
    </div>
  );
}

function VendorGrid({ vendors, view }: { vendors: Vendor[]; view: View }) {
  return (
    <div className={view === 'grid' ? 'grid gap-4 sm:grid-cols-2 xl:grid-cols-3' : 'grid gap-3'}>
      {vendors.map((v) => (
        <VendorCard key={v.id} vendor={v} variant={view} />
      ))}
    </div>
  );
}

/** /vendors: local vendors with search, category filter, featured section and a grid/list toggle (spec section 2). */
export default function VendorsPage() {
  const [search, setSearch] = useState('');
  const [category, setCategory] = useState<VendorCategory | 'all'>('all');
  const [view, setView] = useState<View>('grid');
  const [adding, setAdding] = useState(false);
  const { isAdmin } = useAuth();
  const term = useDebounced(search, 250);
  const list = useVendorList({ search: term, category });
  const data = list.data;
  // The 'All' count is every vendor matching the search, whatever category is picked.
  const total = data?.categories.reduce((n, c) => n + c.count, 0);

  return (
    <section aria-labelledby="vendors-heading" className="grid gap-5">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 id="vendors-heading" className="text-3xl font-bold">
            Local Vendors
          </h1>
          <p className="mt-1 text-muted-foreground">Food, crafts, gear and services from around town, and where to find them next.</p>
        </div>
        {isAdmin && (
          <Button onClick={() => setAdding(true)}>
            <Plus className="h-4 w-4" aria-hidden />
            Add vendor
          </Button>
        )}
      </div>

      <div className="flex gap-2">
        <label className="relative min-w-0 flex-1">
          <span className="sr-only">Search vendors</span>
          <Search className="pointer-events-none absolute left-3 top-1/2 h-4 w-4 -translate-y-1/2 text-muted-foreground" aria-hidden />
          <input
            type="search"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            placeholder="Search vendors or products..."
            maxLength={100}
            className="min-h-11 w-full rounded-lg border border-border bg-card pl-9 pr-3 text-sm focus:outline-none focus-visible:ring-2 focus-visible:ring-[var(--ring)]"
          />
        </label>
        <ViewToggle view={view} onChange={setView} />
      </div>

      <CategoryFilter value={category} onChange={setCategory} categories={data?.categories ?? []} total={total} />

      {list.isPending ? (
        <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3" aria-busy="true">
          <span className="sr-only" role="status">
            Loading vendors
          </span>
          {Array.from({ length: SKELETONS }, (_, i) => (
            <VendorCardSkeleton key={i} />
          ))}
        </div>
      ) : list.isError || !data ? (
        <div role="alert" className="rounded-lg border border-destructive/40 bg-destructive/10 p-6 text-center">
          <h2 className="text-lg font-semibold">Vendors could not be loaded</h2>
          <p className="mt-1 text-sm text-muted-foreground">{list.error?.message}</p>
          <Button variant="outline" className="mt-3" onClick={() => void list.refetch()} disabled={list.isFetching}>
            <RefreshCw className="h-4 w-4" aria-hidden />
            Try again
          </Button>
        </div>
      ) : data.vendors.length === 0 ? (
        <div className="flex flex-col items-center gap-2 rounded-lg border border-dashed border-border bg-card px-6 py-12 text-center" data-testid="vendors-empty">
          <SearchX className="h-10 w-10 text-muted-foreground" aria-hidden />
          <p className="text-muted-foreground">{EMPTY_TEXT}</p>
          {(search || category !== 'all') && (
            <Button
              variant="outline"
              className="mt-2"
              onClick={() => {
                setSearch('');
                setCategory('all');
              }}
            >
              Clear filters
            </Button>
          )}
        </div>
      ) : (
        <div className={`grid gap-8 transition-opacity ${list.isPlaceholderData ? 'opacity-60' : ''}`}>
          {data.featuredVendors.length > 0 && (
            <section aria-labelledby="featured-heading" data-testid="featured-vendors">
              <h2 id="featured-heading" className="mb-3 flex items-center gap-2 text-xl font-bold">
                <Sparkles className="h-5 w-5 text-accent" aria-hidden />
                Featured Vendors
              </h2>
              <VendorGrid vendors={data.featuredVendors} view={view} />
            </section>
          )}
          <section aria-labelledby="all-vendors-heading" data-testid="all-vendors">
            <h2 id="all-vendors-heading" className="mb-3 text-xl font-bold">
              All Vendors ({data.vendors.length})
            </h2>
            <VendorGrid vendors={data.vendors} view={view} />
          </section>
        </div>
      )}

      {isAdmin && <VendorFormDialog open={adding} onOpenChange={setAdding} isAdmin />}
    </section>
  );
}
