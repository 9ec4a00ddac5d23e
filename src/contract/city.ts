import { z } from 'zod';

export const Neighbourhood = z.object({ name: z.string().min(1), lat: z.number(), lng: z.number() });

/** One deployment serves one city (decisions section 8); this is its public description. */
export const CityConfig = z.object({
  name: z.string().min(1),
  timeZone: z.string().min(1),
  center: z.object({ lat: z.number().min(-90).max(90), lng: z.number().min(-180).max(180) }),
  distanceUnit: z.enum(['mi', 'km']),
  locale: z.string().min(2),
  neighbourhoods: z.array(Neighbourhood).min(1),
});
export type CityConfig = z.infer<typeof CityConfig>;

/** GET /api/config: what the browser may know about this deployment. */
export const PublicConfig = z.object({
  city: CityConfig,
  oidc: z.boolean(),
  /** Tile URL template for the quest map ({z}/{x}/{y}); null = no tile server, neighbourhoods only. */
  mapTileUrl: z.string().nullable().optional(),
});
export type PublicConfig = z.infer<typeof PublicConfig>;
