import { z } from 'zod';

/**
 * A product in the marketplace (spec section 3): `vendor` is the vendor's id, which is
 * prefixed `vendor_`; `inStock` is derived from `stock` on the server.
 */
export const Product = z.object({
  id: z.string(),
  name: z.string(),
  /** In the city's currency (dollars), two decimals. */
  price: z.number(),
  rating: z.number().nullable(),
  description: z.string(),
  category: z.string(),
  vendor: z.string(),
  vendorName: z.string(),
  inStock: z.boolean(),
  stock: z.number().int(),
  /** Invented demo-city content (decisions section 8); shown with a Demo label. */
  isDemo: z.boolean().optional(),
});
export type Product = z.infer<typeof Product>;

/** Largest price a product may have, in dollars. */
export const MAX_PRICE = 10_000;
/** Most units of one product in one order line, and most lines in one order. */
export const MAX_LINE_QUANTITY = 999;
export const MAX_ORDER_LINES = 50;
/** Pickup codes: 6 characters from an alphabet without look-alikes (no 0/O, 1/I). */
export const PICKUP_CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
export const PICKUP_CODE_LENGTH = 6;
/** Spec section 2 ("Shop"): the notice under the payment badges. */
export const COMING_SOON_NOTICE = 'Wallet integration, CashApp, Venmo, delivery and inventory sync are coming soon.';

/** The same code however it was typed or scanned: upper case, no spaces or dashes. */
export const normalisePickupCode = (raw: string) => raw.toUpperCase().replace(/[\s-]+/g, '');

/** GET /api/shop: both filters optional; `category` matches exactly ('all' or absent = every category). */
export const ShopQuery = z.object({
  category: z.string().trim().max(60, 'category is too long').optional(),
  search: z.string().trim().max(100, 'search is too long').optional(),
});
export type ShopQuery = z.infer<typeof ShopQuery>;

/** A category of the filter, with how many products (matching the search) it holds. */
export const ShopCategory = z.object({ id: z.string(), name: z.string(), count: z.number().int() });
export type ShopCategory = z.infer<typeof ShopCategory>;

/** A way to pay; only paying at the vendor's booth is `available` today. */
export const PaymentMethod = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  available: z.boolean(),
});
export type PaymentMethod = z.infer<typeof PaymentMethod>;

export const ShopResponse = z.object({
  products: z.array(Product),
  categories: z.array(ShopCategory),
  paymentMethods: z.array(PaymentMethod),
});
export type ShopResponse = z.infer<typeof ShopResponse>;

const price = z
  .number({ message: 'price must be a number' })
  .min(0, 'price must not be negative')
  .max(MAX_PRICE, `price must be at most ${MAX_PRICE}`)
  .refine((n) => Math.abs(Math.round(n * 100) - n * 100) < 1e-6, 'price must have at most two decimals');
const stock = z.number({ message: 'stock must be a number' }).int('stock must be a whole number').min(0, 'stock must not be negative').max(100_000, 'stock is too large');

/** POST /api/shop/products: a vendor the caller owns (or any, for an admin) adds a product. */
export const ProductCreateBody = z.object({
  vendorId: z.string().trim().min(1, 'vendorId is required').max(100),
  name: z.string().trim().min(1, 'name is required').max(120, 'name is too long'),
  price,
  description: z.string().trim().max(2000, 'description is too long').default(''),
  category: z.string().trim().min(1, 'category is required').max(60, 'category is too long'),
  stock,
});
export type ProductCreateBody = z.input<typeof ProductCreateBody>;

/** PATCH /api/shop/products/:id: any of the fields (the vendor stays the same). */
export const ProductPatchBody = z
  .object({
    name: z.string().trim().min(1, 'name is required').max(120, 'name is too long'),
    price,
    description: z.string().trim().max(2000, 'description is too long'),
    category: z.string().trim().min(1, 'category is required').max(60, 'category is too long'),
    stock,
  })
  .partial()
  .refine((b) => Object.keys(b).length > 0, 'Send at least one field to change');
export type ProductPatchBody = z.infer<typeof ProductPatchBody>;

export const ProductParams = z.object({ id: z.uuid({ message: 'id must be a product id' }) });
export const OrderParams = z.object({ id: z.uuid({ message: 'id must be an order id' }) });

/** POST /api/shop/orders: what to reserve; paid at the booth on pickup. */
export const OrderCreateBody = z.object({
  items: z
    .array(
      z.object({
        productId: z.uuid({ message: 'productId must be a product id' }),
        quantity: z.number().int('quantity must be a whole number').min(1, 'quantity must be at least 1').max(MAX_LINE_QUANTITY, `quantity must be at most ${MAX_LINE_QUANTITY}`),
      }),
    )
    .min(1, 'items must name at least one product')
    .max(MAX_ORDER_LINES, `items may name at most ${MAX_ORDER_LINES} products`),
});
export type OrderCreateBody = z.infer<typeof OrderCreateBody>;

export const OrderStatus = z.enum(['reserved', 'fulfilled', 'cancelled']);
export type OrderStatus = z.infer<typeof OrderStatus>;

/** One line of an order, with the name and price as they were at checkout. */
export const OrderItem = z.object({
  id: z.string(),
  productId: z.string().nullable(),
  vendor: z.string(),
  vendorName: z.string(),
  /** Where to pick it up (the vendor's usual booth), when the vendor gave one. */
  booth: z.string(),
  name: z.string(),
  price: z.number(),
  quantity: z.number().int(),
  fulfilledAt: z.string().nullable(),
});
export type OrderItem = z.infer<typeof OrderItem>;

/** An order to pay and pick up at the vendors' booths. */
export const Order = z.object({
  id: z.string(),
  status: OrderStatus,
  total: z.number(),
  items: z.array(OrderItem),
  pickupCode: z.string(),
  createdAt: z.string(),
  fulfilledAt: z.string().nullable(),
  cancelledAt: z.string().nullable(),
});
export type Order = z.infer<typeof Order>;

export const OrderListResponse = z.object({ orders: z.array(Order) });
export type OrderListResponse = z.infer<typeof OrderListResponse>;

/**
 * An order as a vendor sees it: only the lines of vendors the caller runs (admins: all), the
 * buyer's name, and no pickup code (the buyer shows it at the booth).
 */
export const VendorOrder = z.object({
  id: z.string(),
  status: OrderStatus,
  buyerName: z.string(),
  /** Sum of the lines shown. */
  total: z.number(),
  items: z.array(OrderItem),
  createdAt: z.string(),
  /** Every line shown has been handed over. */
  handedOver: z.boolean(),
});
export type VendorOrder = z.infer<typeof VendorOrder>;

export const VendorOrdersQuery = z.object({ status: z.enum(['open', 'all']).default('open') });
export const VendorOrderListResponse = z.object({ orders: z.array(VendorOrder) });
export type VendorOrderListResponse = z.infer<typeof VendorOrderListResponse>;

/** POST /api/shop/vendor-orders/fulfil: the code the buyer shows, typed or scanned. */
export const FulfilBody = z.object({
  pickupCode: z
    .string()
    .max(40, 'pickupCode is too long')
    .transform(normalisePickupCode)
    .pipe(z.string().min(1, 'pickupCode is required')),
});
export type FulfilBody = z.input<typeof FulfilBody>;

/** GET /api/shop/vendor-products: the vendors the caller runs (admins: all) and their products, to manage stock. */
export const VendorProductsResponse = z.object({
  vendors: z.array(z.object({ id: z.string(), name: z.string() })),
  products: z.array(Product),
});
export type VendorProductsResponse = z.infer<typeof VendorProductsResponse>;
