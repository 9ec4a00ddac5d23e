import { z } from 'zod';

/** Messages the server sends on /ws. */
export const ServerMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('gaming_update'), data: z.object({ points: z.number() }) }),
  z.object({ type: z.literal('event_update'), data: z.object({ id: z.string(), action: z.string() }) }),
  z.object({ type: z.literal('notification'), data: z.record(z.string(), z.unknown()) }),
  z.object({ type: z.literal('pong'), data: z.object({ timestamp: z.number() }) }),
  /** A nudge: Community Buzz may have changed; the page refetches it (who did what stays behind the API's filters). */
  z.object({ type: z.literal('buzz'), data: z.object({}) }),
]);
export type ServerMessage = z.infer<typeof ServerMessage>;

export const WS_MAX_MESSAGE_BYTES = 4096;
export const WS_MAX_CONNECTIONS_PER_USER = 5;
export const WS_RECONNECT_ATTEMPTS = 5;
export const WS_RECONNECT_DELAY_MS = 3000;
