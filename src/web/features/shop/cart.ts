import { useSyncExternalStore } from 'react';
import type { Product } from '../../../contract/shop.ts';

/** localStorage key of the cart (spec section 2: the cart is held locally). */
export const CART_KEY = 'townbeat.cart.v1';

export interface CartLine {
  productId: string;
  name: string;
  /** Dollars, as the catalogue showed it when added; the server prices the order. */
  price: number;
  vendorName: string;
  quantity: number;
}

const listeners = new Set<() => void>();
let cached: { raw: string | null; lines: CartLine[] } = { raw: null, lines: [] };

function isLine(x: unknown): x is CartLine {
  if (typeof x !== 'object' || x === null) return false;
  const l = x as Record<string, unknown>;
  return typeof l.productId === 'string' && typeof l.name === 'string' && typeof l.price === 'number' && typeof l.vendorName === 'string' && Number.isInteger(l.quantity) && (l.quantity as number) > 0;
}

function read(): CartLine[] {
  let raw: string | null;
  try {
    raw = localStorage.getItem(CART_KEY);
  } catch {
    return cached.lines;
  }
  if (raw === cached.raw) return cached.lines;
  let lines: CartLine[];
  try {
    const parsed = JSON.parse(raw ?? '[]') as unknown;
    lines = Array.isArray(parsed) ? parsed.filter(isLine) : [];
  } catch {
    lines = [];
  }
  cached = { raw, lines };
  return lines;
}

function write(lines: CartLine[]) {
  try {
    if (lines.length === 0) localStorage.removeItem(CART_KEY);
    else localStorage.setItem(CART_KEY, JSON.stringify(lines));
  } catch {
    // Private mode or a full quota: the cart lives in memory for this page only.
    cached = { raw: cached.raw, lines };
  }
  listeners.forEach((l) => l());
}

function subscribe(cb: () => void) {
  listeners.add(cb);
  // Another tab changed the cart.
  const onStorage = (e: StorageEvent) => {
    if (e.key === CART_KEY || e.key === null) cb();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(cb);
    window.removeEventListener('storage', onStorage);
  };
}

/** Adds one unit; out-of-stock products cannot be added (spec section 5). No quantity limit. */
export function addToCart(p: Pick<Product, 'id' | 'name' | 'price' | 'vendorName' | 'inStock'>) {
  if (!p.inStock) return;
  const lines = read();
  const at = lines.findIndex((l) => l.productId === p.id);
  if (at >= 0) write(lines.map((l, i) => (i === at ? { ...l, quantity: l.quantity + 1, price: p.price, name: p.name } : l)));
  else write([...lines, { productId: p.id, name: p.name, price: p.price, vendorName: p.vendorName, quantity: 1 }]);
}

/** Sets a line's quantity; 0 removes it. */
export function setCartQuantity(productId: string, quantity: number) {
  const q = Math.max(0, Math.floor(quantity));
  write(q === 0 ? read().filter((l) => l.productId !== productId) : read().map((l) => (l.productId === productId ? { ...l, quantity: q } : l)));
}

export function clearCart() {
  write([]);
}

/** Item count and total (dollars, rounded to cents) of some lines. */
export function cartSummary(lines: readonly CartLine[]) {
  const count = lines.reduce((n, l) => n + l.quantity, 0);
  const cents = lines.reduce((n, l) => n + Math.round(l.price * 100) * l.quantity, 0);
  return { count, total: cents / 100 };
}

/** The cart, kept in localStorage across reloads and in step between tabs. */
export function useCart() {
  const lines = useSyncExternalStore(subscribe, read, () => [] as CartLine[]);
  return { lines, ...cartSummary(lines) };
}
