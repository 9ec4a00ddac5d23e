import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AssistantChatRequest, AssistantChatResponse } from '../../../contract/assistant.ts';
import { signedIn } from '../../plugins/auth.ts';
import type { AssistantService } from './assistant.service.ts';

/** POST /api/admin/ai-chat (spec section 7): admins only; changing commands need a confirmation token. */
export async function assistantRoutes(app: FastifyInstance, deps: { assistant: AssistantService }) {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/admin/ai-chat',
    {
      schema: { body: AssistantChatRequest, response: { 200: AssistantChatResponse } },
      config: { access: 'admin' },
    },
    async (req) => {
      const user = signedIn(req);
      return deps.assistant.chat({ id: user.id, email: user.email }, req.body);
    },
  );
}
