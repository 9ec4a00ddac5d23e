import { count, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/client.ts';
import { DEMO_VENDORS } from '../vendors/vendors.demo.ts';
import { vendors } from '../vendors/vendors.table.ts';
import { products } from './shop.table.ts';

interface DemoProduct {
  vendor: string;
  name: string;
  price: number;
  category: string;
  description: string;
  stock: number;
  rating: number | null;
}

/**
 * Invented products of the demo vendors (decisions section 8), marked `isDemo`. A few have no
 * stock left, so the catalogue shows its disabled Add to Cart.
 */
export const DEMO_PRODUCTS: readonly DemoProduct[] = [
  { vendor: 'Rosebud Bakehouse', name: 'Country Sourdough Loaf', price: 9, category: 'Bakery', description: 'A 1 kg naturally leavened loaf with a blistered crust, baked the morning of the market.', stock: 18, rating: 4.9 },
  { vendor: 'Rosebud Bakehouse', name: 'Cardamom Knots (4 pack)', price: 14, category: 'Bakery', description: 'Swedish-style cardamom buns twisted by hand and finished with pearl sugar.', stock: 0, rating: 4.8 },
  { vendor: 'Rosebud Bakehouse', name: 'Seasonal Fruit Galette', price: 22, category: 'Bakery', description: 'Rustic free-form tart with whatever Sauvie Island fruit is best that week. Serves six.', stock: 5, rating: 4.7 },
  { vendor: 'Cascade Cold Brew Co.', name: 'Cold Brew Growler (64 oz)', price: 28, category: 'Coffee & Tea', description: 'Eighteen-hour cold brew of our Mississippi roast in a refillable glass growler.', stock: 9, rating: 4.6 },
  { vendor: 'Cascade Cold Brew Co.', name: 'Whole Bean Coffee, Bridge City Blend', price: 17, category: 'Coffee & Tea', description: '12 oz of a chocolatey medium roast, roasted within the week.', stock: 24, rating: 4.5 },
  { vendor: 'Foxglove Dumpling Cart', name: 'Frozen Pork & Chive Dumplings (24)', price: 18, category: 'Pantry', description: 'Hand-folded and frozen the same day; pan-fry from frozen in eight minutes.', stock: 12, rating: 4.8 },
  { vendor: 'Foxglove Dumpling Cart', name: 'House Chili Crisp', price: 12, category: 'Pantry', description: 'Crunchy garlic, shallot and Sichuan pepper in roasted chili oil. 8 oz jar.', stock: 30, rating: 4.9 },
  { vendor: 'Willow Creek Honey', name: 'Wildflower Honey (16 oz)', price: 15, category: 'Pantry', description: 'Raw, unfiltered spring honey from hives on small Willamette Valley farms.', stock: 20, rating: 4.7 },
  { vendor: 'Willow Creek Honey', name: 'Blackberry Honey (8 oz)', price: 11, category: 'Pantry', description: 'Late-summer honey with a fruity finish; it crystallises slowly and smoothly.', stock: 0, rating: 4.8 },
  { vendor: 'Willow Creek Honey', name: 'Beeswax Taper Candles (pair)', price: 16, category: 'Home & Garden', description: 'Hand-dipped 10-inch tapers of pure beeswax with cotton wicks. Burn about eight hours.', stock: 14, rating: 4.6 },
  { vendor: 'Kiln & Kettle Ceramics', name: 'Speckled Stoneware Mug', price: 34, category: 'Home & Garden', description: 'Wheel-thrown 12 oz mug in an oatmeal glaze. Dishwasher and microwave safe.', stock: 8, rating: 4.9 },
  { vendor: 'Kiln & Kettle Ceramics', name: 'Nesting Serving Bowls (set of 3)', price: 88, category: 'Home & Garden', description: 'Three bowls in a deep forest-green glaze that stack neatly in the cupboard.', stock: 2, rating: 4.8 },
  { vendor: 'Kiln & Kettle Ceramics', name: 'Hanging Planter', price: 42, category: 'Home & Garden', description: 'A small planter with a drainage hole and a jute hanger, for trailing pothos.', stock: 0, rating: null },
  { vendor: 'Stumptown Letterpress', name: 'Portland Bridges Art Print', price: 30, category: 'Art & Paper', description: 'Eight Willamette bridges in two inks on cotton paper, 11 x 14 inches.', stock: 15, rating: 4.7 },
  { vendor: 'Stumptown Letterpress', name: 'Birds of Forest Park Card Set', price: 20, category: 'Art & Paper', description: 'Eight blank cards with envelopes: towhee, junco, Steller’s jay and friends.', stock: 25, rating: 4.8 },
  { vendor: 'Stumptown Letterpress', name: 'Lay-flat Sketch Notebook', price: 16, category: 'Art & Paper', description: 'Hand-bound A5 notebook of dot-grid pages with a letterpress cover.', stock: 11, rating: 4.5 },
  { vendor: 'Thistle & Thread', name: 'Hand-dyed Merino Yarn', price: 26, category: 'Apparel & Textiles', description: 'A 100 g skein of fingering-weight merino dyed with madder and walnut hulls.', stock: 16, rating: 4.9 },
  { vendor: 'Thistle & Thread', name: 'Visible Mending Kit', price: 24, category: 'Apparel & Textiles', description: 'Sashiko needles, thread, a darning mushroom and patches, with illustrated steps.', stock: 7, rating: 4.7 },
  { vendor: 'Basalt Trail Outfitters', name: 'Refurbished 22 L Daypack', price: 45, category: 'Outdoor', description: 'A cleaned, re-proofed and inspected daypack with new buckles. Ready for the Gorge.', stock: 4, rating: 4.4 },
  { vendor: 'Basalt Trail Outfitters', name: 'Columbia Gorge Trail Map', price: 12, category: 'Outdoor', description: 'Waterproof map of trails from Latourell to Starvation Creek, with waterfalls marked.', stock: 40, rating: 4.6 },
  { vendor: 'Basalt Trail Outfitters', name: 'Enamel Camp Mug', price: 18, category: 'Outdoor', description: 'A 12 oz enamel mug printed with a Mount Hood skyline.', stock: 0, rating: 4.3 },
  { vendor: 'Riverbend Bike Works', name: 'Rechargeable Bike Light Set', price: 39, category: 'Bike Gear', description: 'Front and rear USB-C lights, bright enough for winter commutes over the Hawthorne Bridge.', stock: 10, rating: 4.5 },
  { vendor: 'Riverbend Bike Works', name: 'Waxed Canvas Pannier', price: 65, category: 'Bike Gear', description: 'Single pannier sewn in Portland from waxed canvas; fits most racks.', stock: 3, rating: 4.7 },
  { vendor: 'Fernhill Knife Sharpening', name: 'Kitchen Knife Sharpening (per knife)', price: 8, category: 'Services', description: 'Whetstone sharpening while you shop; pick up your knives at the booth in about 20 minutes.', stock: 50, rating: 4.9 },
  { vendor: 'Pearl Street Tailoring', name: 'Trouser Hem', price: 18, category: 'Services', description: 'Drop off at the market, pick up the next Saturday. Jeans keep their original hem on request.', stock: 20, rating: 4.6 },
  { vendor: 'Green Bridge Compost Co-op', name: 'Finished Compost (20 lb bag)', price: 10, category: 'Home & Garden', description: 'Screened compost from neighbourhood food scraps, collected by bike.', stock: 25, rating: 4.5 },
];

/** Inserts the demo products of the demo vendors present, only while no product exists yet. */
export async function insertShopDemo(db: Db, clock: Clock): Promise<number> {
  const [existing] = await db.select({ n: count() }).from(products);
  if ((existing?.n ?? 0) > 0) return 0;
  const names = [...new Set(DEMO_PRODUCTS.map((p) => p.vendor))].filter((n) => DEMO_VENDORS.some((v) => v.name === n));
  if (names.length === 0) return 0;
  const found = await db.select({ id: vendors.id, name: vendors.name }).from(vendors).where(inArray(vendors.name, names));
  const idOf = new Map(found.map((v) => [v.name, v.id]));
  const now = clock.now();
  const rows = DEMO_PRODUCTS.flatMap((p) => {
    const vendorId = idOf.get(p.vendor);
    if (!vendorId) return [];
    return [{ vendorId, name: p.name, description: p.description, category: p.category, priceCents: Math.round(p.price * 100), stock: p.stock, rating: p.rating, isDemo: true, createdAt: now, updatedAt: now }];
  });
  if (rows.length > 0) await db.insert(products).values(rows);
  return rows.length;
}

/** The shop's demo seeder for `src/server/demo-content.ts`: runs after the vendors' one. */
export async function seedShopDemo(app: FastifyInstance): Promise<{ feature: string; rows: number }> {
  return { feature: 'shop', rows: await app.shop.seedDemo() };
}
