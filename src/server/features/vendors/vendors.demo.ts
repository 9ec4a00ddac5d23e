import { and, asc, count, eq, gt, ilike, isNull, or, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/client.ts';
import { events } from '../events/events.table.ts';
import { vendorAppearances, vendors, type VENDOR_CATEGORIES } from './vendors.table.ts';

interface DemoVendor {
  name: string;
  category: (typeof VENDOR_CATEGORIES)[number];
  description: string;
  location: string;
  latitude: number;
  longitude: number;
  booth: string;
  hours: string;
  rating: number;
  ratingCount: number;
  productTags: string[];
  featured: boolean;
  /** Which demo events it appears at: words of their titles (lower case). */
  appearsAt: string[];
}

/**
 * The demo city's vendors: invented Portland businesses (decisions section 8), marked `isDemo`,
 * with no owner. The shop's demo seeder runs after this one and finds them by these names.
 */
export const DEMO_VENDORS: readonly DemoVendor[] = [
  {
    name: 'Rosebud Bakehouse',
    category: 'food_beverage',
    description: 'Naturally leavened loaves, cardamom knots and seasonal galettes baked before dawn in a tiny Hawthorne kitchen.',
    location: 'Hawthorne, Portland',
    latitude: 45.5122,
    longitude: -122.6253,
    booth: 'Stall 14',
    hours: 'Sat 9am–2pm',
    rating: 4.8,
    ratingCount: 126,
    productTags: ['Sourdough', 'Cardamom knots', 'Galettes', 'Rye loaves', 'Cookies'],
    featured: true,
    appearsAt: ['farmers market', 'night market'],
  },
  {
    name: 'Cascade Cold Brew Co.',
    category: 'food_beverage',
    description: 'Small-batch cold brew and nitro on tap from a converted bike cart, roasted in-house on Mississippi Avenue.',
    location: 'Mississippi, Portland',
    latitude: 45.5502,
    longitude: -122.6757,
    booth: 'Cart 3',
    hours: 'Daily 7am–1pm',
    rating: 4.6,
    ratingCount: 88,
    productTags: ['Cold brew', 'Nitro coffee', 'Whole beans', 'Oat latte'],
    featured: false,
    appearsAt: ['farmers market', 'food cart'],
  },
  {
    name: 'Foxglove Dumpling Cart',
    category: 'food_beverage',
    description: 'Hand-folded pork, mushroom and kimchi dumplings, pan-fried to order with house chili crisp.',
    location: 'Foster-Powell, Portland',
    latitude: 45.4966,
    longitude: -122.6007,
    booth: 'Pod B, Cart 7',
    hours: 'Tue–Sun 11am–9pm',
    rating: 4.7,
    ratingCount: 203,
    productTags: ['Pork dumplings', 'Mushroom dumplings', 'Chili crisp', 'Scallion pancakes'],
    featured: true,
    appearsAt: ['night market', 'food cart'],
  },
  {
    name: 'Willow Creek Honey',
    category: 'food_beverage',
    description: 'Raw wildflower and blackberry honey from hives on small farms along the Willamette, plus beeswax candles.',
    location: 'St. Johns, Portland',
    latitude: 45.5901,
    longitude: -122.7547,
    booth: 'Stall 22',
    hours: 'Sat 9am–2pm',
    rating: 4.9,
    ratingCount: 54,
    productTags: ['Wildflower honey', 'Blackberry honey', 'Honeycomb', 'Beeswax candles'],
    featured: false,
    appearsAt: ['farmers market', 'makers'],
  },
  {
    name: 'Kiln & Kettle Ceramics',
    category: 'arts_crafts',
    description: 'Wheel-thrown mugs, bowls and planters in speckled glazes, made in a shared studio off Alberta Street.',
    location: 'Alberta Arts District, Portland',
    latitude: 45.5589,
    longitude: -122.6446,
    booth: 'Table 9',
    hours: 'Fri–Sun 11am–5pm',
    rating: 4.8,
    ratingCount: 71,
    productTags: ['Mugs', 'Bowls', 'Planters', 'Vases', 'Spoon rests'],
    featured: true,
    appearsAt: ['makers', 'art fair', 'night market'],
  },
  {
    name: 'Stumptown Letterpress',
    category: 'arts_crafts',
    description: 'Cards, prints and notebooks set by hand on a 1920s Chandler & Price press, with Portland bridges and birds.',
    location: 'Sellwood, Portland',
    latitude: 45.4648,
    longitude: -122.6533,
    booth: 'Table 4',
    hours: 'Sat–Sun 10am–4pm',
    rating: 4.5,
    ratingCount: 39,
    productTags: ['Greeting cards', 'Art prints', 'Notebooks', 'Calendars'],
    featured: false,
    appearsAt: ['makers', 'art fair'],
  },
  {
    name: 'Thistle & Thread',
    category: 'arts_crafts',
    description: 'Naturally dyed yarn, embroidery kits and mended-denim patches; drop by for a quick visible-mending lesson.',
    location: 'Woodstock, Portland',
    latitude: 45.4794,
    longitude: -122.6186,
    booth: 'Table 12',
    hours: 'Sat 10am–3pm',
    rating: 4.4,
    ratingCount: 27,
    productTags: ['Hand-dyed yarn', 'Embroidery kits', 'Patches'],
    featured: false,
    appearsAt: ['makers', 'art fair', 'farmers market'],
  },
  {
    name: 'Basalt Trail Outfitters',
    category: 'outdoor_gear',
    description: 'Refurbished and locally sewn packs, rain shells and camp gear for Gorge hikes, with free fitting advice.',
    location: 'Kerns, Portland',
    latitude: 45.5268,
    longitude: -122.6418,
    booth: 'Booth 31',
    hours: 'Wed–Sun 10am–6pm',
    rating: 4.6,
    ratingCount: 64,
    productTags: ['Daypacks', 'Rain shells', 'Trekking poles', 'Camp mugs', 'Trail maps'],
    featured: true,
    appearsAt: ['makers', 'farmers market'],
  },
  {
    name: 'Riverbend Bike Works',
    category: 'outdoor_gear',
    description: 'A pop-up repair stand and used-bike shop: tune-ups while you shop, panniers, lights and locks.',
    location: 'Lents, Portland',
    latitude: 45.4799,
    longitude: -122.5684,
    booth: 'Booth 6',
    hours: 'Sat–Sun 9am–3pm',
    rating: 4.3,
    ratingCount: 45,
    productTags: ['Tune-ups', 'Panniers', 'Bike lights', 'U-locks'],
    featured: false,
    appearsAt: ['night market', 'farmers market'],
  },
  {
    name: 'Fernhill Knife Sharpening',
    category: 'local_services',
    description: 'Bring your kitchen knives, scissors and garden tools; sharpened on the spot while you browse the market.',
    location: 'Irvington, Portland',
    latitude: 45.5404,
    longitude: -122.6521,
    booth: 'Stall 2',
    hours: 'Sat 9am–1pm',
    rating: 4.9,
    ratingCount: 112,
    productTags: ['Knife sharpening', 'Scissor sharpening', 'Garden tools'],
    featured: false,
    appearsAt: ['farmers market'],
  },
  {
    name: 'Pearl Street Tailoring',
    category: 'local_services',
    description: 'Hems, zips and alterations turned around in a week; drop off at the market and pick up the next Saturday.',
    location: 'Pearl District, Portland',
    latitude: 45.5283,
    longitude: -122.6827,
    booth: 'Stall 18',
    hours: 'Mon–Sat 10am–6pm',
    rating: 4.5,
    ratingCount: 33,
    productTags: ['Hemming', 'Alterations', 'Zipper repair', 'Mending'],
    featured: false,
    appearsAt: ['farmers market', 'makers'],
  },
  {
    name: 'Green Bridge Compost Co-op',
    category: 'local_services',
    description: 'Neighbourhood compost pickup by bike and finished compost by the bag; sign up at the booth.',
    location: 'Buckman, Portland',
    latitude: 45.5186,
    longitude: -122.6502,
    booth: 'Booth 25',
    hours: 'Pickups Mon & Thu',
    rating: 4.7,
    ratingCount: 58,
    productTags: ['Compost pickup', 'Finished compost', 'Worm bins'],
    featured: true,
    appearsAt: ['farmers market', 'night market'],
  },
];

/** The demo vendors' names, for the shop's demo seeder (it runs after this one). */
export const DEMO_VENDOR_NAMES = DEMO_VENDORS.map((v) => v.name);

/** Words in the titles of the demo feeds' market-day events (farmers market, night market, makers fair, food cart pods). */
const MARKET_WORDS = ['market', 'fair', 'food cart', 'cart pod', 'makers'];
/** How many upcoming occurrences of a market each vendor is linked to. */
const APPEARANCES_PER_MATCH = 3;

/** Upcoming demo market days, soonest first. */
async function upcomingMarkets(db: Db, now: Date) {
  return db
    .select({ id: events.id, title: events.title })
    .from(events)
    .where(
      and(
        eq(events.status, 'approved'),
        eq(events.isDemo, true),
        isNull(events.goneAt),
        gt(events.endDate, now),
        or(...MARKET_WORDS.map((w) => ilike(events.title, `%${w}%`))),
      ),
    )
    .orderBy(asc(events.startDate))
    .limit(500);
}

/**
 * Links each demo vendor without an upcoming appearance to the next demo market days its
 * `appearsAt` words name. Run on every start, so a long-lived demo keeps vendors at coming
 * markets as the demo feeds roll their dates forward.
 */
async function linkDemoAppearances(db: Db, now: Date): Promise<void> {
  const markets = await upcomingMarkets(db, now);
  if (markets.length === 0) return;
  const demo = await db
    .select({ id: vendors.id, name: vendors.name })
    .from(vendors)
    .where(
      and(
        eq(vendors.isDemo, true),
        sql`not exists (select 1 from ${vendorAppearances} a join ${events} e on e.id = a.event_id where a.vendor_id = ${vendors.id} and e.end_date > ${now})`,
      ),
    );
  const appearances: (typeof vendorAppearances.$inferInsert)[] = [];
  for (const row of demo) {
    const spec = DEMO_VENDORS.find((v) => v.name === row.name);
    if (!spec) continue;
    const linked = new Set<string>();
    for (const word of spec.appearsAt) {
      const matches = markets.filter((m) => m.title.toLowerCase().includes(word) && !linked.has(m.id)).slice(0, APPEARANCES_PER_MATCH);
      for (const m of matches) {
        linked.add(m.id);
        appearances.push({ vendorId: row.id, eventId: m.id, booth: spec.booth, createdAt: now });
      }
    }
  }
  if (appearances.length > 0) await db.insert(vendorAppearances).values(appearances).onConflictDoNothing();
}

/**
 * Inserts the demo vendors when the vendors table is empty, then links demo vendors to
 * upcoming demo market days. Returns how many vendor rows it added.
 */
export async function insertDemoVendors(db: Db, clock: Clock): Promise<number> {
  const now = clock.now();
  const [existing] = await db.select({ n: count() }).from(vendors);
  let added = 0;
  if ((existing?.n ?? 0) === 0) {
    const rows = await db
      .insert(vendors)
      .values(DEMO_VENDORS.map(({ appearsAt: _appearsAt, ...v }) => ({ ...v, isDemo: true, createdAt: now, updatedAt: now })))
      .onConflictDoNothing()
      .returning({ id: vendors.id });
    added = rows.length;
  }
  await linkDemoAppearances(db, now);
  return added;
}

/** The vendors' demo seeder for `src/server/demo-content.ts`: demo vendors linked to demo market days. */
export async function seedVendorsDemo(app: FastifyInstance): Promise<{ feature: string; rows: number }> {
  return { feature: 'vendors', rows: await app.vendors.seedDemo() };
}
