import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { HealthResponse } from '../../../contract/health.ts';
import type { HealthService } from './health.service.ts';

export async function healthRoutes(app: FastifyInstance, deps: { health: HealthService }) {
  app
    .withTypeProvider<ZodTypeProvider>()
    .get('/api/health', { schema: { response: { 200: HealthResponse } }, config: { access: 'public' } }, async () => deps.health.report());
}
