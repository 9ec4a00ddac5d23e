import { z } from 'zod';

/** The checks behind `status`: any one failing makes it 'degraded'. */
export const HealthChecks = z.object({
  /** A timed `select 1`: 'slow' over 500 ms, 'down' when it failed. */
  database: z.object({ status: z.enum(['ok', 'slow', 'down']), responseTime: z.number().nullable() }),
  /** The source scheduler: 'off' when this instance does not run one, 'stopped' when it should but does not. */
  scheduler: z.object({ status: z.enum(['running', 'starting', 'stopped', 'off']) }),
  /**
   * The last run of each enabled source: 'failing' when most of them failed; `leftOut` counts
   * those whose last run did not fail while the last one that read the feed could not use some of
   * its entries (its run notes say why; a 'not modified' run since changes nothing of it); `held`
   * counts, likewise, those whose last run kept listed events it did not meet.
   */
  sources: z.object({ status: z.enum(['ok', 'failing']), failing: z.number().int(), leftOut: z.number().int(), held: z.number().int(), total: z.number().int() }),
});
export type HealthChecks = z.infer<typeof HealthChecks>;

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
  checks: HealthChecks.optional(),
});
export type HealthResponse = z.infer<typeof HealthResponse>;
