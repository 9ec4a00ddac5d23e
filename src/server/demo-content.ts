import type { FastifyInstance } from 'fastify';
import { seedVendorsDemo } from './features/vendors/vendors.demo.ts';
import { seedShopDemo } from './features/shop/shop.demo.ts';
import { seedStoriesDemo } from './features/stories/stories.demo.ts';
import { seedQuestsDemo } from './features/quests/quests.demo.ts';

/**
 * Demo content beyond the event feeds (vendors, products, stories ...), invented for the demo
 * city and marked `isDemo`. Runs after the demo feeds were ingested, so it can link to demo
 * events; each feature's seeder adds its rows only when its own table is empty.
 */
export async function seedFeatureDemos(app: FastifyInstance): Promise<{ feature: string; rows: number }[]> {
  const seeded: { feature: string; rows: number }[] = [];
  // Feature seeders are appended here, one line each, in dependency order (vendors before the shop).
  seeded.push(await seedVendorsDemo(app));
  seeded.push(await seedShopDemo(app));
  seeded.push(await seedStoriesDemo(app));
  seeded.push(await seedQuestsDemo(app));
  void app;
  return seeded;
}
