import { ClipboardList, Info, Minus, Plus, Search, ShoppingCart, Star, Store, Trash2 } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { COMING_SOON_NOTICE, type PaymentMethod, type Product } from '../../../contract/shop.ts';
import { Button, buttonClass } from '../../components/ui/button.tsx';
import { Chip } from '../../components/ui/chip.tsx';
import { Dialog } from '../../components/ui/dialog.tsx';
import { toast } from '../../components/ui/use-toast.ts';
import { addToCart, clearCart, setCartQuantity, useCart } from './cart.ts';
import { formatPrice, shopErrorMessage, useCheckout, useIsVendor, useShop } from './shop.queries.ts';

export const EMPTY_TEXT = 'No products found matching your criteria.';
const SEARCH_DEBOUNCE_MS = 300;

function PaymentBadges({ methods }: { methods: readonly PaymentMethod[] }) {
  return (
    <section aria-labelledby="payment-heading" className="rounded-lg border border-border bg-card p-4">
      <h2 id="payment-heading" className="text-sm font-semibold">
        Payment methods
      </h2>
      <ul className="mt-2 flex flex-wrap gap-2" data-testid="payment-methods">
        {methods.map((m) => (
          <li key={m.id} title={m.description}>
            <Chip tone={m.available ? 'success' : 'muted'}>{m.available ? m.name : `${m.name} · Coming soon`}</Chip>
          </li>
        ))}
      </ul>
      <p className="mt-3 flex items-start gap-2 text-sm text-muted-foreground" data-testid="coming-soon-notice">
        <Info className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
        <span>Reserve online, then pay and pick up at the vendor&rsquo;s booth. {COMING_SOON_NOTICE}</span>
      </p>
    </section>
  );
}

function ProductCard({ product }: { product: Product }) {
  const headingId = useId();
  const add = () => {
    addToCart(product);
    toast({ title: 'Added to cart', description: product.name });
  };
  return (
    <article aria-labelledby={headingId} className="flex flex-col gap-2 rounded-lg border border-border bg-card p-4 shadow-sm" data-testid="product-card">
      <div className="flex flex-wrap items-center gap-2">
        <Chip>{product.category}</Chip>
        {product.isDemo && <Chip tone="accent">Demo</Chip>}
      </div>
      <h3 id={headingId} className="text-lg font-semibold leading-snug">
        {product.name}
      </h3>
      <p className="flex items-center gap-1 text-sm text-muted-foreground">
        <Store className="h-4 w-4" aria-hidden />
        {product.vendorName}
      </p>
      <p className="line-clamp-3 text-sm">{product.description}</p>
      <div className="mt-auto flex items-center justify-between gap-2 pt-2">
        <span className="text-xl font-bold">{formatPrice(product.price)}</span>
        {product.rating !== null && (
          <span className="flex items-center gap-1 text-sm" aria-label={`Rated ${product.rating} out of 5`}>
            <Star className="h-4 w-4 fill-accent text-accent" aria-hidden />
            {product.rating.toFixed(1)}
          </span>
        )}
      </div>
      <p className={`text-sm font-semibold ${product.inStock ? 'text-success' : 'text-destructive'}`}>{product.inStock ? `In stock (${product.stock} left)` : 'Out of stock'}</p>
      <Button onClick={add} disabled={!product.inStock} aria-label={`Add to Cart: ${product.name}`}>
        <ShoppingCart className="h-4 w-4" aria-hidden />
        Add to Cart
      </Button>
    </article>
  );
}

function CartDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const { lines, count, total } = useCart();
  const checkout = useCheckout();
  const [, navigate] = useLocation();
  const [problem, setProblem] = useState<string | null>(null);

  const submit = async () => {
    setProblem(null);
    try {
      const order = await checkout.mutateAsync({ items: lines.map((l) => ({ productId: l.productId, quantity: l.quantity })) });
      clearCart();
      onOpenChange(false);
      toast({ title: 'Order reserved', description: `Pickup code ${order.pickupCode}` });
      navigate(`/shop/orders/${order.id}`);
    } catch (err) {
      setProblem(shopErrorMessage(err));
    }
  };

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        onOpenChange(next);
        setProblem(null);
      }}
      title="Your cart"
      description="Checkout reserves these items for you; pay by cash or card when you pick them up at each vendor's booth."
    >
      {lines.length === 0 ? (
        <p className="py-4 text-sm text-muted-foreground">Your cart is empty.</p>
      ) : (
        <ul className="divide-y divide-border" data-testid="cart-lines">
          {lines.map((l) => (
            <li key={l.productId} className="flex flex-wrap items-center gap-2 py-3" data-testid="cart-line">
              <div className="min-w-0 flex-1">
                <p className="font-semibold">{l.name}</p>
                <p className="text-xs text-muted-foreground">
                  {l.vendorName} · {formatPrice(l.price)} each
                </p>
              </div>
              <div className="flex items-center gap-1">
                <Button variant="ghost" className="!px-3" aria-label={`One fewer ${l.name}`} onClick={() => setCartQuantity(l.productId, l.quantity - 1)}>
                  <Minus className="h-4 w-4" aria-hidden />
                </Button>
                <span className="w-8 text-center font-semibold" aria-label={`Quantity of ${l.name}`}>
                  {l.quantity}
                </span>
                <Button variant="ghost" className="!px-3" aria-label={`One more ${l.name}`} onClick={() => setCartQuantity(l.productId, l.quantity + 1)}>
                  <Plus className="h-4 w-4" aria-hidden />
                </Button>
                <Button variant="ghost" className="!px-3" aria-label={`Remove ${l.name}`} onClick={() => setCartQuantity(l.productId, 0)}>
                  <Trash2 className="h-4 w-4" aria-hidden />
                </Button>
              </div>
            </li>
          ))}
        </ul>
      )}
      <div className="mt-3 flex items-center justify-between border-t border-border pt-3 font-semibold">
        <span data-testid="cart-count">
          {count} {count === 1 ? 'item' : 'items'}
        </span>
        <span data-testid="cart-total">{formatPrice(total)}</span>
      </div>
      {problem && (
        <p role="alert" className="mt-3 rounded-lg border border-destructive/50 p-3 text-sm text-destructive" data-testid="checkout-error">
          {problem}
        </p>
      )}
      <div className="mt-4 flex flex-wrap justify-end gap-2">
        {lines.length > 0 && (
          <Button variant="outline" onClick={clearCart}>
            Empty cart
          </Button>
        )}
        <Button onClick={() => void submit()} disabled={lines.length === 0 || checkout.isPending}>
          {checkout.isPending ? 'Reserving…' : 'Checkout'}
        </Button>
      </div>
    </Dialog>
  );
}

/** /shop: the marketplace (spec section 2 "Shop"), with a cart kept in the browser and checkout for pickup at the booth. */
export default function ShopPage() {
  const [searchInput, setSearchInput] = useState('');
  const [search, setSearch] = useState('');
  const [category, setCategory] = useState('all');
  const [cartOpen, setCartOpen] = useState(false);
  const { count, total } = useCart();
  const isVendor = useIsVendor();
  const shop = useShop({ category, search });

  useEffect(() => {
    const t = setTimeout(() => setSearch(searchInput), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(t);
  }, [searchInput]);

  const categories = shop.data?.categories ?? [];
  const allCount = categories.reduce((n, c) => n + c.count, 0);

  return (
    <section aria-labelledby="page-heading" className="flex flex-col gap-5">
      <header className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 id="page-heading" className="text-3xl font-bold">
            Marketplace
          </h1>
          <p className="mt-1 text-muted-foreground">Goods from local vendors: reserve here, pay and pick up at their booth.</p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Link href="/shop/orders" className={buttonClass('outline')}>
            <ClipboardList className="h-4 w-4" aria-hidden />
            My orders
          </Link>
          {isVendor && (
            <Link href="/shop/vendor-orders" className={buttonClass('outline')}>
              <Store className="h-4 w-4" aria-hidden />
              Vendor orders
            </Link>
          )}
          <Button onClick={() => setCartOpen(true)} aria-haspopup="dialog" data-testid="cart-button">
            <ShoppingCart className="h-4 w-4" aria-hidden />
            Cart ({count}) · {formatPrice(total)}
          </Button>
        </div>
      </header>

      <div className="flex flex-col gap-3">
        <label className="relative block max-w-md">
          <span className="sr-only">Search products</span>
          <Search className="pointer-events-none absolute left-3 top-1/2 h-4 w-4 -translate-y-1/2 text-muted-foreground" aria-hidden />
          <input
            type="search"
            value={searchInput}
            onChange={(e) => setSearchInput(e.target.value)}
            placeholder="Search products or vendors"
            className="min-h-11 w-full rounded-lg border border-border bg-card pl-9 pr-3 text-sm"
          />
        </label>
        <div role="group" aria-label="Category" className="-mx-4 flex gap-2 overflow-x-auto px-4 pb-1 sm:mx-0 sm:flex-wrap sm:overflow-visible sm:px-0">
          {[{ id: 'all', name: 'All', count: allCount }, ...categories].map((c) => (
            <button
              key={c.id}
              type="button"
              aria-pressed={category === c.id}
              onClick={() => setCategory(c.id)}
              className={`min-h-11 shrink-0 whitespace-nowrap rounded-full border px-4 text-sm font-semibold transition-colors ${category === c.id ? 'border-primary bg-primary text-primary-foreground' : 'border-border bg-card hover:bg-muted'}`}
            >
              {c.name} ({c.count})
            </button>
          ))}
        </div>
      </div>

      {shop.data && <PaymentBadges methods={shop.data.paymentMethods} />}

      {shop.isPending ? (
        <div role="status" aria-label="Loading products" className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {Array.from({ length: 6 }, (_, i) => (
            <div key={i} className="h-64 animate-pulse rounded-lg bg-muted" />
          ))}
        </div>
      ) : shop.isError ? (
        <div role="alert" className="rounded-lg border border-destructive/50 bg-card p-4 text-sm">
          <p className="text-destructive">The marketplace could not be loaded. {shopErrorMessage(shop.error)}</p>
          <Button variant="outline" className="mt-3" onClick={() => void shop.refetch()}>
            Try again
          </Button>
        </div>
      ) : shop.data.products.length === 0 ? (
        <p className="rounded-lg border border-dashed border-border bg-card p-6 text-center text-muted-foreground">{EMPTY_TEXT}</p>
      ) : (
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3" aria-busy={shop.isFetching}>
          {shop.data.products.map((p) => (
            <ProductCard key={p.id} product={p} />
          ))}
        </div>
      )}

      <CartDialog open={cartOpen} onOpenChange={setCartOpen} />
    </section>
  );
}
