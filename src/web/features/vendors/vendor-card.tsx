import { Clock, MapPin, Star, Store } from 'lucide-react';
import { useId } from 'react';
import { Link } from 'wouter';
import { CARD_PRODUCTS_SHOWN, VENDOR_CATEGORY_NAMES, type Vendor, type VendorCategory } from '../../../contract/vendors.ts';

/** One colour per vendor category, from the theme's category palette. */
const CATEGORY_TONE: Record<VendorCategory, string> = {
  food_beverage: 'var(--cat-food)',
  arts_crafts: 'var(--cat-arts)',
  outdoor_gear: 'var(--cat-sports)',
  local_services: 'var(--cat-business)',
};

export function VendorCategoryChip({ category }: { category: VendorCategory }) {
  return (
    <span className="inline-flex items-center gap-1.5 whitespace-nowrap rounded-full bg-muted px-2.5 py-0.5 text-xs font-semibold" data-testid="vendor-category">
      <span className="h-2 w-2 rounded-full" style={{ backgroundColor: CATEGORY_TONE[category] }} aria-hidden />
      {VENDOR_CATEGORY_NAMES[category]}
    </span>
  );
}

/** '4.8 (126)', or 'No ratings yet'. */
export function VendorRating({ rating, count }: { rating: number | null; count: number }) {
  if (rating === null) return <span className="text-sm text-muted-foreground">No ratings yet</span>;
  return (
    <span className="inline-flex items-center gap-1 text-sm font-medium" aria-label={`Rated ${rating.toFixed(1)} out of 5 from ${count} ${count === 1 ? 'rating' : 'ratings'}`}>
      <Star className="h-4 w-4 fill-current text-accent" aria-hidden />
      {rating.toFixed(1)}
      <span className="text-muted-foreground">({count})</span>
    </span>
  );
}

/** The first three product tags and '+N more' (spec section 2). */
export function ProductTags({ products }: { products: string[] }) {
  if (products.length === 0) return null;
  const shown = products.slice(0, CARD_PRODUCTS_SHOWN);
  const more = products.length - shown.length;
  return (
    <ul className="flex flex-wrap gap-1.5" aria-label="Products" data-testid="vendor-products">
      {shown.map((p) => (
        <li key={p} className="rounded-full border border-border px-2.5 py-0.5 text-xs">
          {p}
        </li>
      ))}
      {more > 0 && <li className="rounded-full bg-muted px-2.5 py-0.5 text-xs font-semibold text-muted-foreground">+{more} more</li>}
    </ul>
  );
}

function Facts({ vendor }: { vendor: Vendor }) {
  return (
    <dl className="grid gap-1 text-sm text-muted-foreground">
      {vendor.location && (
        <div className="flex items-center gap-2">
          <dt>
            <MapPin className="h-4 w-4 shrink-0" aria-hidden />
            <span className="sr-only">Location</span>
          </dt>
          <dd className="min-w-0 truncate">{vendor.location}</dd>
        </div>
      )}
      {vendor.booth && (
        <div className="flex items-center gap-2">
          <dt>
            <Store className="h-4 w-4 shrink-0" aria-hidden />
            <span className="sr-only">Booth</span>
          </dt>
          <dd>{vendor.booth}</dd>
        </div>
      )}
      {vendor.hours && (
        <div className="flex items-center gap-2">
          <dt>
            <Clock className="h-4 w-4 shrink-0" aria-hidden />
            <span className="sr-only">Hours</span>
          </dt>
          <dd>{vendor.hours}</dd>
        </div>
      )}
    </dl>
  );
}

/** A vendor in the /vendors grid or list: the whole card opens its page. */
export function VendorCard({ vendor, variant = 'grid' }: { vendor: Vendor; variant?: 'grid' | 'list' }) {
  const titleId = useId();
  const title = (
    <h3 id={titleId} className="text-base font-semibold leading-snug">
      <Link
        href={`/vendors/${vendor.id}`}
        className="rounded outline-none after:absolute after:inset-0 after:rounded-lg after:content-[''] hover:text-primary focus-visible:after:outline focus-visible:after:outline-2 focus-visible:after:outline-[var(--ring)]"
      >
        {vendor.name}
      </Link>
    </h3>
  );
  const head = (
    <div className="flex flex-wrap items-center gap-2">
      <VendorCategoryChip category={vendor.category} />
      {vendor.featured && <span className="rounded-full bg-accent-soft px-2.5 py-0.5 text-xs font-semibold text-accent">Featured</span>}
      {vendor.isDemo && <span className="text-xs text-muted-foreground">Demo</span>}
    </div>
  );

  if (variant === 'list') {
    return (
      <article aria-labelledby={titleId} data-testid="vendor-card" data-variant="list" className="relative flex flex-col gap-2 rounded-lg border border-border bg-card p-4 shadow-sm transition-shadow duration-200 hover:shadow-md sm:flex-row sm:items-start sm:gap-6">
        <div className="flex min-w-0 flex-1 flex-col gap-1.5">
          {head}
          {title}
          <p className="line-clamp-2 text-sm text-muted-foreground">{vendor.description}</p>
          <ProductTags products={vendor.products} />
        </div>
        <div className="flex shrink-0 flex-col gap-1 sm:w-56">
          <VendorRating rating={vendor.rating} count={vendor.ratingCount} />
          <Facts vendor={vendor} />
        </div>
      </article>
    );
  }

  return (
    <article aria-labelledby={titleId} data-testid="vendor-card" data-variant="grid" className="relative flex flex-col gap-3 rounded-lg border border-border bg-card p-4 shadow-sm transition-shadow duration-200 hover:shadow-md">
      {head}
      <div className="flex items-start justify-between gap-2">
        {title}
        <VendorRating rating={vendor.rating} count={vendor.ratingCount} />
      </div>
      <p className="line-clamp-3 text-sm text-muted-foreground">{vendor.description}</p>
      <Facts vendor={vendor} />
      <div className="mt-auto">
        <ProductTags products={vendor.products} />
      </div>
    </article>
  );
}

/** A placeholder with the card's shape. */
export function VendorCardSkeleton() {
  return (
    <div data-testid="vendor-card-skeleton" aria-hidden className="flex animate-pulse flex-col gap-3 rounded-lg border border-border bg-card p-4">
      <div className="h-4 w-24 rounded-full bg-muted" />
      <div className="h-5 w-3/4 rounded bg-muted" />
      <div className="h-10 w-full rounded bg-muted" />
      <div className="h-4 w-1/2 rounded bg-muted" />
      <div className="h-4 w-2/5 rounded bg-muted" />
    </div>
  );
}
