import { z } from 'zod';

/** GET /api/health (spec section 3): uptime in milliseconds, storage figures counted live. */
export const HealthResponse = z.object({
  status: z.enum(['operational', 'degraded']),
  health: z.object({
    metrics: z.object({
      system: z.object({ uptime: z.number() }),
      storage: z.object({
        totalEvents: z.number().int(),
        todayEvents: z.number().int(),
        totalUsers: z.number().int(),
      }),
    }),
  }),
});
export type HealthResponse = z.infer<typeof HealthResponse>;
