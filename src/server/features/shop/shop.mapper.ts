import type { Order, OrderItem, Product, VendorOrder } from '../../../contract/shop.ts';
import type { ItemWithVendor, ProductWithVendor } from './shop.repository.ts';
import type { OrderRow } from './shop.table.ts';

/** Cents to the wire's dollars (two decimals, exact for any sum of cents). */
export const toDollars = (cents: number) => Math.round(cents) / 100;
export const toCents = (dollars: number) => Math.round(dollars * 100);

export function toProduct(p: ProductWithVendor): Product {
  return {
    id: p.id,
    name: p.name,
    price: toDollars(p.priceCents),
    rating: p.rating === null ? null : Math.round(p.rating * 10) / 10,
    description: p.description,
    category: p.category,
    vendor: p.vendorId,
    vendorName: p.vendorName,
    inStock: p.stock > 0,
    stock: p.stock,
    isDemo: p.isDemo,
  };
}

export function toOrderItem(i: ItemWithVendor): OrderItem {
  return {
    id: i.id,
    productId: i.productId,
    vendor: i.vendorId,
    vendorName: i.vendorName,
    booth: i.booth,
    name: i.name,
    price: toDollars(i.priceCents),
    quantity: i.quantity,
    fulfilledAt: i.fulfilledAt ? i.fulfilledAt.toISOString() : null,
  };
}

export function toOrder(o: OrderRow, items: readonly ItemWithVendor[]): Order {
  return {
    id: o.id,
    status: o.status,
    total: toDollars(o.totalCents),
    items: items.map(toOrderItem),
    pickupCode: o.pickupCode,
    createdAt: o.createdAt.toISOString(),
    fulfilledAt: o.fulfilledAt ? o.fulfilledAt.toISOString() : null,
    cancelledAt: o.cancelledAt ? o.cancelledAt.toISOString() : null,
  };
}

/** A buyer as a vendor sees them: first name and last initial, else the email's name part. */
export function buyerName(b: { firstName: string | null; lastName: string | null; email: string }): string {
  const first = b.firstName?.trim();
  if (first) return b.lastName?.trim() ? `${first} ${b.lastName.trim()[0]!.toUpperCase()}.` : first;
  return b.email.split('@')[0] ?? 'Customer';
}

export function toVendorOrder(o: OrderRow, buyer: string, items: readonly ItemWithVendor[]): VendorOrder {
  return {
    id: o.id,
    status: o.status,
    buyerName: buyer,
    total: toDollars(items.reduce((sum, i) => sum + i.priceCents * i.quantity, 0)),
    items: items.map(toOrderItem),
    createdAt: o.createdAt.toISOString(),
    handedOver: items.length > 0 && items.every((i) => i.fulfilledAt !== null),
  };
}
