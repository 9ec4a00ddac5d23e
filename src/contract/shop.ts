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
});
export type Product = z.infer<typeof Product>;
