import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  AdminUser,
  AdminUserParams,
  AdminUserPatch,
  AdminUsersQuery,
  AdminUsersResponse,
  AdminOverviewResponse,
  AiStatusResponse,
  AnalyticsQuery,
  AnalyticsResponse,
  AuditQuery,
  AuditResponse,
  BackupsResponse,
  SecurityReport,
  StoredBackup,
  StoredBackupParams,
  SystemStatus,
  UserActivitiesQuery,
  UserActivitiesResponse,
} from '../../../contract/admin.ts';
import type { Clock } from '../../clock.ts';
import type { Database } from '../../db/client.ts';
import { conflict, notFound } from '../../errors.ts';
import { signedIn } from '../../plugins/auth.ts';
import { classifierMetrics } from '../ingestion/classifier/metrics.ts';
import { toAdminUser, toAuditEntry, toUserActivity } from './admin.mapper.ts';
import type { AdminService } from './admin.service.ts';
import type { AiMonitor } from './ai-monitor.ts';
import type { AuditRepository } from './audit.repository.ts';
import type { BackupsService } from './backups.service.ts';
import type { createSecurityService } from './security.service.ts';

const admin = { access: 'admin' as const };

/** The admin area's API: status, analytics, users, AI engines, the audit log and the security report. */
export async function adminRoutes(
  app: FastifyInstance,
  deps: {
    admin: AdminService;
    audit: AuditRepository;
    security: ReturnType<typeof createSecurityService>;
    ai: AiMonitor;
    languageModel: { model: string } | null;
    clock: Clock;
    database: Pick<Database, 'backup'>;
    /** Scheduled backups (null on PostgreSQL). */
    backups: BackupsService | null;
  },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const svc = deps.admin;

  r.get('/api/admin/system-status', { schema: { response: { 200: SystemStatus } }, config: admin }, async () => svc.systemStatus());

  r.get('/api/admin/overview', { schema: { response: { 200: AdminOverviewResponse } }, config: admin }, async () => svc.overview());

  r.get('/api/admin/analytics', { schema: { querystring: AnalyticsQuery, response: { 200: AnalyticsResponse } }, config: admin }, async (req) => svc.analytics(req.query.days));

  r.get('/api/admin/users', { schema: { querystring: AdminUsersQuery, response: { 200: AdminUsersResponse } }, config: admin }, async (req) => {
    const { rows, total } = await svc.listUsers(req.query);
    return { users: rows.map(toAdminUser), total };
  });

  r.patch('/api/admin/users/:id', { schema: { params: AdminUserParams, body: AdminUserPatch, response: { 200: AdminUser } }, config: admin }, async (req) => {
    const user = await svc.updateUser(signedIn(req), req.params.id, req.body);
    if (user.disabledAt) app.realtime.disconnectUser(user.id);
    return toAdminUser({ user, lastActiveAt: null });
  });

  r.get('/api/admin/user-activities', { schema: { querystring: UserActivitiesQuery, response: { 200: UserActivitiesResponse } }, config: admin }, async (req) => {
    const { rows, total } = await svc.listActivities(req.query);
    return { activities: rows.map(toUserActivity), total };
  });

  r.get('/api/admin/audit', { schema: { querystring: AuditQuery, response: { 200: AuditResponse } }, config: admin }, async (req) => ({
    entries: (await deps.audit.listNewest(req.query.limit)).map(toAuditEntry),
  }));

  r.get('/api/admin/ai-status', { schema: { response: { 200: AiStatusResponse } }, config: admin }, async () => ({
    model: 'Built-in event classifier (logistic regression, offline)',
    ...classifierMetrics(),
    llm: deps.languageModel,
    features: deps.ai.status(),
  }));

  r.get('/api/deployment/security', { schema: { response: { 200: SecurityReport } }, config: admin }, async () => deps.security.report());

  const onPostgres = () => conflict('This server runs on PostgreSQL (DATABASE_URL): back it up with pg_dump');
  // The embedded database whole, to keep somewhere safe; RESTORE_FROM starts a server on it again.
  r.get('/api/admin/backup', { config: { ...admin, auditReads: true } }, async (_req, reply) => {
    if (!deps.database.backup) throw onPostgres();
    const day = deps.clock.now().toISOString().slice(0, 10);
    // Streamed: compressed as the admin downloads it, with the database free again meanwhile.
    const tarball = await deps.database.backup();
    return reply
      .header('content-type', 'application/gzip')
      .header('content-disposition', `attachment; filename="townbeat-backup-${day}.tar.gz"`)
      .header('cache-control', 'no-store')
      .send(tarball);
  });

  // The backups the server keeps by itself (BACKUP_DIR), and one taken now (before an upgrade).
  r.get('/api/admin/backups', { schema: { response: { 200: BackupsResponse } }, config: admin }, async () =>
    deps.backups ? deps.backups.status() : { scheduled: false, dir: null, everyHours: 0, keepDays: 0, next: null, lastError: null, backups: [] },
  );
  r.post('/api/admin/backups', { schema: { response: { 201: StoredBackup } }, config: admin }, async (_req, reply) => {
    if (!deps.backups) throw onPostgres();
    return reply.status(201).send(await deps.backups.take());
  });
  r.get('/api/admin/backups/:name', { schema: { params: StoredBackupParams }, config: { ...admin, auditReads: true } }, async (req, reply) => {
    const file = await deps.backups?.open(req.params.name);
    if (!file) throw notFound('No stored backup of that name');
    return reply
      .header('content-type', 'application/gzip')
      .header('content-length', file.bytes)
      .header('content-disposition', `attachment; filename="${req.params.name}"`)
      .header('cache-control', 'no-store')
      .send(file.stream);
  });
}
