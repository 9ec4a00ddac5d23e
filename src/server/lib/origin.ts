import type { FastifyRequest } from 'fastify';

/** The address people use to reach this server: PUBLIC_URL when set, else this request's own. */
export function publicOrigin(req: FastifyRequest, publicUrl: string | undefined): string {
  if (publicUrl) return new URL(publicUrl).origin;
  return `${req.protocol}://${req.host}`;
}
