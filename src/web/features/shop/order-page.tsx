import { ArrowLeft, CheckCircle2 } from 'lucide-react';
import { useState } from 'react';
import { Link, useParams } from 'wouter';
import { Button, buttonClass } from '../../components/ui/button.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { toast } from '../../components/ui/use-toast.ts';
import { useCityTimeZone } from '../events/events.queries.ts';
import { formatOrderDate, OrderStatusChip } from './order-status.tsx';
import { PickupQr } from './pickup-qr.tsx';
import { formatPrice, shopErrorMessage, useCancelOrder, useOrder } from './shop.queries.ts';

/** /shop/orders/:id: the order, its pickup code as text and QR code, and Cancel while reserved. */
export default function OrderPage() {
  const { id = '' } = useParams<{ id: string }>();
  const order = useOrder(id);
  const cancel = useCancelOrder();
  const [confirming, setConfirming] = useState(false);
  const timeZone = useCityTimeZone();

  if (order.isPending) return <Spinner label="Loading the order" />;
  if (order.isError || !order.data) {
    return (
      <section aria-labelledby="page-heading">
        <h1 id="page-heading" className="text-3xl font-bold">
          Order
        </h1>
        <p role="alert" className="mt-3 text-destructive">
          This order could not be loaded. {shopErrorMessage(order.error)}
        </p>
        <Link href="/shop/orders" className={buttonClass('outline', 'mt-4')}>
          My orders
        </Link>
      </section>
    );
  }
  const o = order.data;
  const booths = [...new Map(o.items.map((i) => [i.vendor, i])).values()];

  const doCancel = async () => {
    try {
      await cancel.mutateAsync(o.id);
      toast({ title: 'Order cancelled', description: 'The items are back on the shelf.' });
    } catch (err) {
      toast({ title: 'Error', description: shopErrorMessage(err), variant: 'destructive' });
    } finally {
      setConfirming(false);
    }
  };

  return (
    <section aria-labelledby="page-heading" className="mx-auto flex max-w-2xl flex-col gap-5">
      <Link href="/shop" className="flex items-center gap-1 text-sm font-semibold text-primary hover:underline">
        <ArrowLeft className="h-4 w-4" aria-hidden />
        Back to the marketplace
      </Link>
      <header className="flex flex-wrap items-center justify-between gap-2">
        <h1 id="page-heading" className="text-3xl font-bold">
          Your order
        </h1>
        <OrderStatusChip status={o.status} />
      </header>
      <p className="text-sm text-muted-foreground">Placed {formatOrderDate(o.createdAt, timeZone)}</p>

      {o.status === 'reserved' && (
        <div className="flex flex-col items-center gap-3 rounded-lg border border-border bg-card p-5 text-center" data-testid="pickup">
          <h2 className="text-lg font-semibold">Pickup code</h2>
          <p className="font-mono text-4xl font-bold tracking-[0.3em]" data-testid="pickup-code">
            {o.pickupCode}
          </p>
          <PickupQr code={o.pickupCode} />
          <p className="max-w-sm text-sm text-muted-foreground">Show this code at each vendor&rsquo;s booth, then pay by cash or card when you pick your items up.</p>
        </div>
      )}
      {o.status === 'fulfilled' && (
        <p className="flex items-center gap-2 rounded-lg border border-success/40 bg-success-soft p-4 font-semibold text-success">
          <CheckCircle2 className="h-5 w-5" aria-hidden />
          Picked up {o.fulfilledAt ? formatOrderDate(o.fulfilledAt, timeZone) : ''}. Enjoy!
        </p>
      )}
      {o.status === 'cancelled' && <p className="rounded-lg border border-border bg-card p-4 text-muted-foreground">This order was cancelled{o.cancelledAt ? ` on ${formatOrderDate(o.cancelledAt, timeZone)}` : ''}.</p>}

      <section aria-labelledby="items-heading" className="rounded-lg border border-border bg-card p-4">
        <h2 id="items-heading" className="text-lg font-semibold">
          Items
        </h2>
        <ul className="mt-2 divide-y divide-border">
          {o.items.map((i) => (
            <li key={i.id} className="flex items-start justify-between gap-3 py-2">
              <div>
                <p className="font-semibold">
                  {i.quantity} × {i.name}
                </p>
                <p className="text-xs text-muted-foreground">
                  {i.vendorName}
                  {i.booth ? ` · ${i.booth}` : ''}
                  {i.fulfilledAt ? ' · handed over' : ''}
                </p>
              </div>
              <span className="font-semibold">{formatPrice(i.price * i.quantity)}</span>
            </li>
          ))}
        </ul>
        <p className="mt-2 flex justify-between border-t border-border pt-2 text-lg font-bold">
          <span>Total</span>
          <span data-testid="order-total">{formatPrice(o.total)}</span>
        </p>
        {o.status === 'reserved' && booths.length > 1 && <p className="mt-2 text-xs text-muted-foreground">Items from {booths.length} vendors: each hands over and takes payment for its own.</p>}
      </section>

      {o.status === 'reserved' && !o.items.some((i) => i.fulfilledAt) && (
        <div className="flex flex-wrap items-center gap-2">
          {confirming ? (
            <>
              <span className="text-sm">Cancel this order? The items go back on sale.</span>
              <Button variant="destructive" onClick={() => void doCancel()} disabled={cancel.isPending}>
                Yes, cancel order
              </Button>
              <Button variant="outline" onClick={() => setConfirming(false)}>
                Keep it
              </Button>
            </>
          ) : (
            <Button variant="outline" onClick={() => setConfirming(true)}>
              Cancel order
            </Button>
          )}
        </div>
      )}
    </section>
  );
}
