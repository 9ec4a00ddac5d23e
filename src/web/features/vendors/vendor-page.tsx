import { ArrowLeft, CalendarDays, CalendarPlus, Clock, Heart, MapPin, Pencil, Store, UserRound } from 'lucide-react';
import { useState } from 'react';
import { Link, useParams } from 'wouter';
import type { VendorDetail } from '../../../contract/vendors.ts';
import { Button, buttonClass } from '../../components/ui/button.tsx';
import { LoadFailure } from '../../components/ui/load-failure.tsx';
import { toast } from '../../components/ui/use-toast.ts';
import { ApiError } from '../../lib/api-client.ts';
import { useAuth } from '../auth/auth.queries.ts';
import { formatEventWhen, useCityConfig } from '../events/events.queries.ts';
import { AddAppearanceDialog } from './add-appearance-dialog.tsx';
import { VendorCategoryChip, VendorRating } from './vendor-card.tsx';
import { VendorFormDialog } from './vendor-form-dialog.tsx';
import { VendorQrButton } from './vendor-qr.tsx';
import { useToggleFollow, useVendor } from './vendors.queries.ts';

const backLink = (
  <Link href="/vendors" className="mb-4 inline-flex min-h-11 items-center gap-2 text-sm font-medium text-primary hover:underline">
    <ArrowLeft className="h-4 w-4" aria-hidden />
    Back to Vendors
  </Link>
);
const factLabel = 'flex items-center gap-2 text-xs font-semibold uppercase tracking-wide text-muted-foreground';
const money = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

function FollowButton({ vendor }: { vendor: VendorDetail }) {
  const follow = useToggleFollow(vendor.id);
  const on = vendor.isFollowing;
  return (
    <Button
      variant={on ? 'secondary' : 'primary'}
      aria-pressed={on}
      disabled={follow.isPending}
      onClick={() =>
        follow.mutate(undefined, {
          onSuccess: (r) => toast({ title: r.isFollowing ? `Following ${vendor.name}` : `Unfollowed ${vendor.name}`, description: r.isFollowing ? 'You will be told when it adds an appearance.' : undefined }),
          onError: () => toast({ title: 'Error', description: 'Failed to update follow', variant: 'destructive' }),
        })
      }
    >
      <Heart className={`h-4 w-4 ${on ? 'fill-current' : ''}`} aria-hidden />
      {on ? 'Following' : 'Follow'}
    </Button>
  );
}

/** Appearances shown before "Show all": a month or two of market days. */
export const APPEARANCES_FOLDED = 8;

function Appearances({ vendor }: { vendor: VendorDetail }) {
  const { data: config } = useCityConfig();
  const [all, setAll] = useState(false);
  const total = vendor.appearances.length;
  const shown = all ? vendor.appearances : vendor.appearances.slice(0, APPEARANCES_FOLDED);
  return (
    <section aria-labelledby="appearances-heading">
      <h2 id="appearances-heading" className="text-xl font-bold">
        Upcoming appearances
      </h2>
      {vendor.appearances.length === 0 ? (
        <p className="mt-2 text-muted-foreground">No upcoming appearances yet.</p>
      ) : (
        <ul id="vendor-appearances-list" className="mt-2 grid gap-2" data-testid="vendor-appearances">
          {shown.map((a) => (
            <li key={a.id} className="relative flex items-start gap-3 rounded-lg border border-border bg-card p-3 hover:shadow-sm">
              <CalendarDays className="mt-0.5 h-5 w-5 shrink-0 text-primary" aria-hidden />
              <div className="min-w-0">
                <Link href={`/events/${a.eventId}`} className="font-semibold after:absolute after:inset-0 after:rounded-lg after:content-[''] hover:text-primary">
                  {a.eventTitle}
                </Link>
                <p className="text-sm text-muted-foreground">
                  <time dateTime={a.startDate}>{formatEventWhen(a, config?.city.timeZone ?? a.timeZone, config?.city.locale)}</time>
                  {a.venue ? ` · ${a.venue}` : ''}
                  {a.booth ? ` · ${a.booth}` : ''}
                </p>
              </div>
            </li>
          ))}
        </ul>
      )}
      {total > APPEARANCES_FOLDED && (
        <Button variant="outline" className="mt-2" aria-expanded={all} aria-controls="vendor-appearances-list" onClick={() => setAll((v) => !v)}>
          {all ? 'Show fewer' : `Show all ${total} appearances`}
        </Button>
      )}
    </section>
  );
}

function Products({ vendor }: { vendor: VendorDetail }) {
  return (
    <section aria-labelledby="products-heading">
      <h2 id="products-heading" className="text-xl font-bold">
        Products
      </h2>
      {vendor.products.length > 0 && (
        <ul className="mt-2 flex flex-wrap gap-1.5" aria-label="What it sells">
          {vendor.products.map((p) => (
            <li key={p} className="rounded-full border border-border px-2.5 py-0.5 text-sm">
              {p}
            </li>
          ))}
        </ul>
      )}
      {vendor.productList.length > 0 ? (
        <ul className="mt-3 grid gap-2 sm:grid-cols-2" data-testid="vendor-product-list">
          {vendor.productList.map((p) => (
            <li key={p.id} className="flex flex-col gap-1 rounded-lg border border-border bg-card p-3">
              <div className="flex items-start justify-between gap-2">
                <span className="font-semibold">{p.name}</span>
                <span className="font-semibold">{money.format(p.price)}</span>
              </div>
              {p.description && <p className="line-clamp-2 text-sm text-muted-foreground">{p.description}</p>}
              <span className={`text-xs font-semibold ${p.inStock ? 'text-success' : 'text-destructive'}`}>{p.inStock ? 'In stock' : 'Out of stock'}</span>
            </li>
          ))}
        </ul>
      ) : (
        vendor.products.length === 0 && <p className="mt-2 text-muted-foreground">No products listed yet.</p>
      )}
      {vendor.productList.length > 0 && (
        <Link href="/shop" className={buttonClass('outline', 'mt-3')}>
          Shop the Marketplace
        </Link>
      )}
    </section>
  );
}

/** /vendors/:id: a vendor, its products and upcoming appearances; follow it; its owner edits it. */
export default function VendorPage() {
  const { id = '' } = useParams<{ id: string }>();
  const { data: vendor, isPending, error, refetch, isFetching } = useVendor(id);
  const { isAdmin } = useAuth();
  const [editing, setEditing] = useState(false);
  const [adding, setAdding] = useState(false);

  if (isPending) {
    return (
      <div aria-busy="true" className="mx-auto max-w-4xl animate-pulse">
        <span className="sr-only" role="status">
          Loading vendor
        </span>
        <div className="mb-4 h-5 w-36 rounded bg-muted" />
        <div className="h-9 w-2/3 rounded bg-muted" />
        <div className="mt-4 h-24 w-full rounded bg-muted" />
        <div className="mt-6 h-40 w-full rounded bg-muted" />
      </div>
    );
  }
  if (error || !vendor) {
    const missing = error instanceof ApiError && error.status === 404;
    return (
      <LoadFailure thing="Vendor" missing={missing} error={error} onRetry={() => void refetch()} retrying={isFetching} back={{ href: '/vendors', label: 'Back to Vendors' }} />
    );
  }

  return (
    <article className="mx-auto max-w-4xl">
      {backLink}
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="min-w-0 flex-1">
          <div className="flex flex-wrap items-center gap-2">
            <VendorCategoryChip category={vendor.category} />
            {vendor.featured && <span className="rounded-full bg-accent-soft px-2.5 py-0.5 text-xs font-semibold text-accent">Featured</span>}
          </div>
          <h1 className="mt-2 text-3xl font-bold leading-tight">{vendor.name}</h1>
          {vendor.isDemo && <p className="mt-1 text-xs font-medium text-muted-foreground">Demo content</p>}
          <div className="mt-2 flex flex-wrap items-center gap-3">
            <VendorRating rating={vendor.rating} count={vendor.ratingCount} />
            <span className="text-sm text-muted-foreground" data-testid="follower-count">
              {vendor.followerCount} {vendor.followerCount === 1 ? 'follower' : 'followers'}
            </span>
          </div>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          <FollowButton vendor={vendor} />
          {vendor.canEdit && (
            <>
              <Button variant="outline" onClick={() => setEditing(true)}>
                <Pencil className="h-4 w-4" aria-hidden />
                Edit
              </Button>
              <Button variant="outline" onClick={() => setAdding(true)}>
                <CalendarPlus className="h-4 w-4" aria-hidden />
                Add appearance
              </Button>
            </>
          )}
          <VendorQrButton vendorId={vendor.id} name={vendor.name} />
        </div>
      </div>

      <div className="mt-6 grid gap-6 md:grid-cols-[minmax(0,1fr)_18rem]">
        <div className="grid min-w-0 content-start gap-6">
          <section aria-labelledby="about-heading">
            <h2 id="about-heading" className="text-xl font-bold">
              About
            </h2>
            {vendor.description ? <p className="mt-2 whitespace-pre-wrap leading-relaxed">{vendor.description}</p> : <p className="mt-2 text-muted-foreground">No description yet.</p>}
          </section>
          <Appearances vendor={vendor} />
          <Products vendor={vendor} />
        </div>
        <aside>
          <dl className="grid gap-3 rounded-lg border border-border bg-card p-4">
            <div>
              <dt className={factLabel}>
                <MapPin className="h-5 w-5 shrink-0 text-primary" aria-hidden />
                Location
              </dt>
              <dd className="pl-7">{vendor.location || 'Not given'}</dd>
            </div>
            <div>
              <dt className={factLabel}>
                <Store className="h-5 w-5 shrink-0 text-primary" aria-hidden />
                Booth
              </dt>
              <dd className="pl-7">{vendor.booth || 'Not given'}</dd>
            </div>
            <div>
              <dt className={factLabel}>
                <Clock className="h-5 w-5 shrink-0 text-primary" aria-hidden />
                Hours
              </dt>
              <dd className="pl-7">{vendor.hours || 'Not given'}</dd>
            </div>
            {vendor.owner && (
              <div>
                <dt className={factLabel}>
                  <UserRound className="h-5 w-5 shrink-0 text-primary" aria-hidden />
                  Owner
                </dt>
                <dd className="break-words pl-7" data-testid="vendor-owner">
                  {vendor.owner.name || vendor.owner.email}
                  {vendor.owner.name && <span className="block text-sm text-muted-foreground">{vendor.owner.email}</span>}
                </dd>
              </div>
            )}
          </dl>
        </aside>
      </div>

      {vendor.canEdit && (
        <>
          <VendorFormDialog open={editing} onOpenChange={setEditing} isAdmin={isAdmin} vendor={vendor} />
          <AddAppearanceDialog open={adding} onOpenChange={setAdding} vendor={vendor} />
        </>
      )}
    </article>
  );
}
