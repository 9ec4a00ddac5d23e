import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { MarkReadBody, NotificationListResponse, UnreadResponse } from '../../../contract/notifications.ts';
import { signedIn } from '../../plugins/auth.ts';
import type { NotificationsService } from './notifications.service.ts';

/** The notification bell: list (newest 50 and the unread count) and mark read. */
export async function notificationsRoutes(app: FastifyInstance, deps: { notifications: NotificationsService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { notifications } = deps;

  r.get('/api/notifications', { schema: { response: { 200: NotificationListResponse } }, config: { access: 'user' } }, async (req) =>
    notifications.list(signedIn(req).id),
  );

  // The body is optional: no body (or no ids) marks every notification read.
  r.post('/api/notifications/read', { schema: { body: MarkReadBody.nullish(), response: { 200: UnreadResponse } }, config: { access: 'user' } }, async (req) =>
    notifications.markRead(signedIn(req).id, req.body?.ids),
  );
}
