import { Link } from 'wouter';
import { buttonClass } from '../../components/ui/button.tsx';
import { useCityTimeZone } from '../events/events.queries.ts';
import { formatOrderDate, OrderStatusChip } from './order-status.tsx';
import { formatPrice, shopErrorMessage, useMyOrders } from './shop.queries.ts';

/** /shop/orders: the signed-in user's orders, newest first. */
export default function OrdersPage() {
  const orders = useMyOrders();
  const timeZone = useCityTimeZone();
  return (
    <section aria-labelledby="page-heading" className="mx-auto flex max-w-2xl flex-col gap-4">
      <header className="flex flex-wrap items-end justify-between gap-2">
        <h1 id="page-heading" className="text-3xl font-bold">
          My orders
        </h1>
        <Link href="/shop" className={buttonClass('outline')}>
          Back to the marketplace
        </Link>
      </header>
      {orders.isPending ? (
        <div role="status" aria-label="Loading your orders" className="space-y-2">
          {Array.from({ length: 3 }, (_, i) => (
            <div key={i} className="h-20 animate-pulse rounded-lg bg-muted" />
          ))}
        </div>
      ) : orders.isError ? (
        <p role="alert" className="text-destructive">
          Your orders could not be loaded. {shopErrorMessage(orders.error)}
        </p>
      ) : orders.data.orders.length === 0 ? (
        <p className="rounded-lg border border-dashed border-border bg-card p-6 text-center text-muted-foreground">You have no orders yet.</p>
      ) : (
        <ul className="flex flex-col gap-3">
          {orders.data.orders.map((o) => (
            <li key={o.id}>
              <Link href={`/shop/orders/${o.id}`} className="flex flex-wrap items-center justify-between gap-2 rounded-lg border border-border bg-card p-4 hover:bg-muted">
                <div>
                  <p className="font-semibold">{o.items.map((i) => `${i.quantity} × ${i.name}`).join(', ')}</p>
                  <p className="text-xs text-muted-foreground">
                    {formatOrderDate(o.createdAt, timeZone)} · {o.status === 'reserved' ? `Pickup code ${o.pickupCode}` : ''}
                  </p>
                </div>
                <div className="flex items-center gap-2">
                  <OrderStatusChip status={o.status} />
                  <span className="font-bold">{formatPrice(o.total)}</span>
                </div>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
