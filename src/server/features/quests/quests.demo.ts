import { count } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client.ts';
import { huntNodes, hunts, questNodes, type NODE_DIFFICULTIES } from './quests.table.ts';

interface DemoNode {
  name: string;
  description: string;
  difficulty: (typeof NODE_DIFFICULTIES)[number];
  category: string;
  points: number;
  clue: string;
  address: string;
  latitude: number;
  longitude: number;
  requirements: string[];
  requiresPhoto?: boolean;
}

/** Invented quest nodes near the demo city's neighbourhood centres (decisions section 8). */
export const DEMO_NODES: readonly DemoNode[] = [
  { name: 'The Brass Compass', description: 'A compass rose set into the plaza paving, pointing every which way but home.', difficulty: 'easy', category: 'Landmark', points: 25, clue: 'Where the city sits down for lunch, north is underfoot.', address: 'Pioneer Square, Downtown', latitude: 45.5189, longitude: -122.6794, requirements: ['Outdoor', 'Free'] },
  { name: 'Warehouse Window Mural', description: 'A painted crane takes flight across three loading-dock doors.', difficulty: 'easy', category: 'Art', points: 30, clue: 'A bird that never leaves the brick.', address: 'NW 13th Ave, Pearl District', latitude: 45.5287, longitude: -122.6835, requirements: ['Outdoor', 'Photo spot'] },
  { name: 'Old Town Lantern Gate', description: 'Red lanterns mark the way in; count the lions on the way through.', difficulty: 'medium', category: 'History', points: 40, clue: 'Two stone guardians and a roof of tiles.', address: 'NW 4th Ave, Old Town', latitude: 45.5243, longitude: -122.6721, requirements: ['Outdoor', 'History'] },
  { name: 'Gallery Walk Stencil', description: 'A tiny stencilled fox hides among the gallery doors; the locals swear it moves.', difficulty: 'hard', category: 'Art', points: 60, clue: 'Look low on the last Thursday.', address: 'NE Alberta St, Alberta Arts', latitude: 45.5589, longitude: -122.6452, requirements: ['Sharp eyes', 'Photo required'], requiresPhoto: true },
  { name: 'Record Shop Listening Post', description: 'A bench with a pair of bolted-down headphones playing local bands on a loop.', difficulty: 'easy', category: 'Music', points: 25, clue: 'Sit, listen, and the avenue sings back.', address: 'N Mississippi Ave, Mississippi', latitude: 45.5505, longitude: -122.6757, requirements: ['Free', 'Accessible'] },
  { name: 'Hawthorne Bridge Lookout', description: 'Watch the lift span rise from the eastbank landing.', difficulty: 'medium', category: 'Landmark', points: 35, clue: 'Where bikes outnumber cars and the river looks back.', address: 'SE Hawthorne Blvd, Hawthorne', latitude: 45.5121, longitude: -122.6258, requirements: ['Outdoor'] },
  { name: 'Sellwood Antique Bell', description: 'An old fire bell outside a row of antique shops; give it one polite ring.', difficulty: 'medium', category: 'History', points: 40, clue: 'It used to call the firemen; now it calls the curious.', address: 'SE 13th Ave, Sellwood', latitude: 45.4653, longitude: -122.6515, requirements: ['Outdoor', 'History'] },
  { name: 'Cathedral Park Echo', description: 'Under the gothic arches of the bridge, clap once and count the echoes.', difficulty: 'hard', category: 'Nature', points: 55, clue: 'A church without a roof, under a bridge of green.', address: 'N Edison St, St. Johns', latitude: 45.5882, longitude: -122.7572, requirements: ['Outdoor', 'Walking'] },
  { name: 'Laurelhurst Duck Pond', description: 'The pond at the heart of the park; the herons keep office hours.', difficulty: 'easy', category: 'Nature', points: 20, clue: 'Water, willows, and a very particular bird.', address: 'SE Oak St, Kerns', latitude: 45.5264, longitude: -122.6434, requirements: ['Outdoor', 'Family'] },
  { name: 'Theatre Marquee Star', description: 'A star set into the sidewalk under the old marquee for a film that never was.', difficulty: 'expert', category: 'History', points: 80, clue: 'The name in lights is not the name in stone.', address: 'NE Sandy Blvd, Hollywood', latitude: 45.5354, longitude: -122.6204, requirements: ['Photo required', 'History'], requiresPhoto: true },
];

/** The demo hunts: names exported so tests and the e2e run can find them. */
export const DEMO_HUNT_NAMES = ['Eastside Explorer', 'River City Heritage Trail'] as const;

const DEMO_HUNTS = [
  { name: DEMO_HUNT_NAMES[0], description: 'Five stops across the east side: a pond, a bridge, a bench that sings and a theatre star. Any order.', reward: '150 points and bragging rights', rewardPoints: 150, ordered: false, nodes: ['Laurelhurst Duck Pond', 'Hawthorne Bridge Lookout', 'Record Shop Listening Post', 'Theatre Marquee Star', 'Gallery Walk Stencil'] },
  { name: DEMO_HUNT_NAMES[1], description: 'Walk the old city from the plaza to the river and beyond, in order.', reward: '200 points', rewardPoints: 200, ordered: true, nodes: ['The Brass Compass', 'Old Town Lantern Gate', 'Warehouse Window Mural', 'Sellwood Antique Bell', 'Cathedral Park Echo'] },
];

/** Inserts the demo nodes and hunts when there are no nodes yet; returns the rows added. */
export async function insertDemoQuests(db: Db, now: Date): Promise<number> {
  const [existing] = await db.select({ n: count() }).from(questNodes);
  if ((existing?.n ?? 0) > 0) return 0;
  return db.transaction(async (tx) => {
    const rows = await tx
      .insert(questNodes)
      .values(DEMO_NODES.map((n) => ({ ...n, requiresPhoto: n.requiresPhoto ?? false, isDemo: true, createdAt: now, updatedAt: now })))
      .returning({ id: questNodes.id, name: questNodes.name });
    const byName = new Map(rows.map((r) => [r.name, r.id]));
    for (const h of DEMO_HUNTS) {
      const { nodes, ...fields } = h;
      const [hunt] = await tx.insert(hunts).values({ ...fields, isDemo: true, createdAt: now, updatedAt: now }).returning({ id: hunts.id });
      await tx.insert(huntNodes).values(nodes.map((name, position) => ({ huntId: hunt!.id, nodeId: byName.get(name)!, position })));
    }
    return rows.length + DEMO_HUNTS.length;
  });
}

/** Demo seeder: invented quest nodes and hunts for the demo city, only when none exist. */
export async function seedQuestsDemo(app: FastifyInstance): Promise<{ feature: string; rows: number }> {
  return { feature: 'quests', rows: await app.quests.seedDemo() };
}
