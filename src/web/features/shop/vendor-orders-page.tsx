import { CheckCircle2, PackageCheck } from 'lucide-react';
import { useRef, useState, type FormEvent } from 'react';
import { Link, Redirect } from 'wouter';
import { normalisePickupCode, type VendorOrder } from '../../../contract/shop.ts';
import { Button, buttonClass } from '../../components/ui/button.tsx';
import { toast } from '../../components/ui/use-toast.ts';
import { useCityTimeZone } from '../events/events.queries.ts';
import { formatOrderDate, OrderStatusChip } from './order-status.tsx';
import { PickupScanner } from './pickup-scanner.tsx';
import { VendorProducts } from './vendor-products.tsx';
import { formatPrice, shopErrorMessage, useCancelOrder, useFulfil, useIsVendor, useVendorOrders } from './shop.queries.ts';

function FulfilForm() {
  const fulfil = useFulfil();
  const [code, setCode] = useState('');
  const [done, setDone] = useState<VendorOrder | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);

  const send = async (raw: string) => {
    const pickupCode = normalisePickupCode(raw);
    setDone(null);
    setProblem(null);
    if (!pickupCode) {
      setProblem('Type the pickup code the customer shows you.');
      input.current?.focus();
      return;
    }
    try {
      setDone(await fulfil.mutateAsync({ pickupCode }));
      setCode('');
    } catch (err) {
      setProblem(shopErrorMessage(err));
    }
  };
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    void send(code);
  };

  return (
    <section aria-labelledby="fulfil-heading" className="rounded-lg border border-border bg-card p-4">
      <h2 id="fulfil-heading" className="text-lg font-semibold">
        Hand over an order
      </h2>
      <p className="mt-1 text-sm text-muted-foreground">Type the pickup code the customer shows, or scan its QR code; take payment, then Fulfil.</p>
      <form onSubmit={onSubmit} className="mt-3 flex flex-wrap items-end gap-2">
        <label className="flex flex-col gap-1 text-sm font-medium">
          Pickup code
          <input
            ref={input}
            value={code}
            onChange={(e) => setCode(e.target.value)}
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            maxLength={20}
            className="min-h-11 w-44 rounded-lg border border-border bg-background px-3 font-mono text-lg uppercase tracking-widest"
          />
        </label>
        <Button type="submit" disabled={fulfil.isPending}>
          <PackageCheck className="h-4 w-4" aria-hidden />
          Fulfil
        </Button>
      </form>
      <div className="mt-3">
        <PickupScanner
          onCode={(text) => {
            setCode(normalisePickupCode(text));
            void send(text);
          }}
        />
      </div>
      {problem && (
        <p role="alert" className="mt-3 text-sm text-destructive" data-testid="fulfil-error">
          {problem}
        </p>
      )}
      {done && (
        <div role="status" className="mt-3 flex items-start gap-2 rounded-lg border border-success/40 bg-success-soft p-3 text-sm text-success" data-testid="fulfil-done">
          <CheckCircle2 className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
          <span>
            Handed over to {done.buyerName}: {done.items.map((i) => `${i.quantity} × ${i.name}`).join(', ')}. Collect {formatPrice(done.total)}.
          </span>
        </div>
      )}
    </section>
  );
}

/** A vendor may cancel an order nobody has collected yet (e.g. sold out at the stall); the buyer is told. */
function CancelButton({ order }: { order: VendorOrder }) {
  const cancel = useCancelOrder();
  const [confirming, setConfirming] = useState(false);
  const go = async () => {
    try {
      await cancel.mutateAsync(order.id);
      toast({ title: 'Order cancelled', description: `${order.buyerName} has been told; the items are back in stock.` });
    } catch (err) {
      toast({ title: 'Error', description: shopErrorMessage(err), variant: 'destructive' });
      setConfirming(false);
    }
  };
  if (!confirming)
    return (
      <Button variant="ghost" className="mt-2" onClick={() => setConfirming(true)}>
        Cancel order
      </Button>
    );
  return (
    <div className="mt-2 flex flex-wrap items-center gap-2 text-sm">
      <span>Cancel {order.buyerName}&rsquo;s whole order?</span>
      <Button variant="destructive" onClick={() => void go()} disabled={cancel.isPending}>
        Yes, cancel
      </Button>
      <Button variant="outline" onClick={() => setConfirming(false)}>
        Keep it
      </Button>
    </div>
  );
}

function OrderList({ status }: { status: 'open' | 'all' }) {
  const orders = useVendorOrders(status);
  const timeZone = useCityTimeZone();
  if (orders.isPending) return <div role="status" aria-label="Loading orders" className="h-24 animate-pulse rounded-lg bg-muted" />;
  if (orders.isError)
    return (
      <p role="alert" className="text-destructive">
        Orders could not be loaded. {shopErrorMessage(orders.error)}
      </p>
    );
  if (orders.data.orders.length === 0)
    return <p className="rounded-lg border border-dashed border-border bg-card p-6 text-center text-muted-foreground">{status === 'open' ? 'No orders waiting to be picked up.' : 'No orders yet.'}</p>;
  return (
    <ul className="flex flex-col gap-3" data-testid="vendor-orders">
      {orders.data.orders.map((o) => (
        <li key={o.id} className="rounded-lg border border-border bg-card p-4">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <p className="font-semibold">{o.buyerName}</p>
            <div className="flex items-center gap-2">
              {o.handedOver && o.status === 'reserved' ? <span className="text-xs font-semibold text-success">Your items handed over</span> : <OrderStatusChip status={o.status} />}
              <span className="font-bold">{formatPrice(o.total)}</span>
            </div>
          </div>
          <ul className="mt-1 text-sm">
            {o.items.map((i) => (
              <li key={i.id}>
                {i.quantity} × {i.name} <span className="text-muted-foreground">({i.vendorName})</span>
                {i.fulfilledAt && <span className="text-success"> · handed over</span>}
              </li>
            ))}
          </ul>
          <p className="mt-1 text-xs text-muted-foreground">Reserved {formatOrderDate(o.createdAt, timeZone)}</p>
          {o.status === 'reserved' && !o.items.some((i) => i.fulfilledAt) && <CancelButton order={o} />}
        </li>
      ))}
    </ul>
  );
}

/** /shop/vendor-orders: for vendors and admins, the orders to hand over and the pickup-code check. */
export default function VendorOrdersPage() {
  const isVendor = useIsVendor();
  const [status, setStatus] = useState<'open' | 'all'>('open');
  if (!isVendor) return <Redirect to="/shop" />;
  return (
    <section aria-labelledby="page-heading" className="mx-auto flex max-w-3xl flex-col gap-4">
      <header className="flex flex-wrap items-end justify-between gap-2">
        <h1 id="page-heading" className="text-3xl font-bold">
          Vendor orders
        </h1>
        <Link href="/shop" className={buttonClass('outline')}>
          Back to the marketplace
        </Link>
      </header>
      <FulfilForm />
      <div role="group" aria-label="Which orders" className="flex gap-2">
        {(
          [
            ['open', 'To hand over'],
            ['all', 'All orders'],
          ] as const
        ).map(([id, label]) => (
          <button
            key={id}
            type="button"
            aria-pressed={status === id}
            onClick={() => setStatus(id)}
            className={`min-h-11 rounded-full border px-4 text-sm font-semibold ${status === id ? 'border-primary bg-primary text-primary-foreground' : 'border-border bg-card hover:bg-muted'}`}
          >
            {label}
          </button>
        ))}
      </div>
      <OrderList status={status} />
      <VendorProducts />
    </section>
  );
}
