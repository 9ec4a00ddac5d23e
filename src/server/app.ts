import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join, resolve } from 'node:path';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import cookie from '@fastify/cookie';
import compress from '@fastify/compress';
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { CityConfig } from '../contract/city.ts';
import { PublicConfig } from '../contract/city.ts';
import { systemClock, type Clock } from './clock.ts';
import type { Database } from './db/client.ts';
import { createStatisticsKeeper } from './db/statistics.ts';
import type { Env } from './env.ts';
import { createAuthRepository } from './features/auth/auth.repository.ts';
import { authRoutes } from './features/auth/auth.routes.ts';
import { createAuthService } from './features/auth/auth.service.ts';
import type { OidcAdapter } from './features/auth/oidc.ts';
import { createRateLimitCounter, sharedRateLimitStore } from './features/auth/rate-limiter.ts';
import { COMPRESS_THRESHOLD } from './features/events/answer-cache.ts';
import { eventsRoutes } from './features/events/events.routes.ts';
import { createEventsService } from './features/events/events.service.ts';
import { createImageJob, type ImageJob } from './features/images/images.job.ts';
import { imagesRoutes } from './features/images/images.routes.ts';
import { createImagesService } from './features/images/images.service.ts';
import { createDemoFetch, isDemoImageUrl } from './features/ingestion/demo/demo-fetch.ts';
import { createSafeFetch } from './features/ingestion/fetch/safe-fetch.ts';
import { createIngestionService, type IngestionService } from './features/ingestion/ingestion.service.ts';
import type { SafeFetch } from './features/ingestion/ingestion.types.ts';
import { createDuplicatesRepository } from './features/ingestion/duplicates.repository.ts';
import { duplicatesRoutes } from './features/ingestion/duplicates.routes.ts';
import { createDuplicatesService } from './features/ingestion/duplicates.service.ts';
import { createScheduler, createSchedulerClient, type Scheduler } from './features/ingestion/scheduler.ts';
import { createSourcesRepository, type SourcesRepository } from './features/ingestion/sources.repository.ts';
import { sourcesRoutes } from './features/ingestion/sources.routes.ts';
import { createSourcesService } from './features/ingestion/sources.service.ts';
import { createHmac } from 'node:crypto';
import { gamingRoutes } from './features/gaming/gaming.routes.ts';
import { createGamingService } from './features/gaming/gaming.service.ts';
import { notificationsRoutes } from './features/notifications/notifications.routes.ts';
import { createNotificationsService } from './features/notifications/notifications.service.ts';
import { qrRoutes } from './features/qr/qr.routes.ts';
import { questsRoutes } from './features/quests/quests.routes.ts';
import { createQuestsService } from './features/quests/quests.service.ts';
import { recommendationsRoutes } from './features/recommendations/recommendations.routes.ts';
import { createOcrPool } from './features/scan/engine/ocr-pool.ts';
import { scanRoutes } from './features/scan/scan.routes.ts';
import { createScanService, type OcrReader } from './features/scan/scan.service.ts';
import { createQrService } from './features/qr/qr.service.ts';
import { vendorsPlugin } from './features/vendors/vendors.routes.ts';
import { shopPlugin } from './features/shop/shop.routes.ts';
import { storiesFeature } from './features/stories/stories.routes.ts';
import { signalsRoutes } from './features/recommendations/signals.routes.ts';
import { createEventBus, type EventBus } from './lib/event-bus.ts';
import { createLlmClient } from './lib/llm.ts';
import { createArRepository } from './features/ar/ar.repository.ts';
import { arRoutes } from './features/ar/ar.routes.ts';
import { createArService } from './features/ar/ar.service.ts';
import { memoriesRoutes } from './features/memories/memories.routes.ts';
import { createMemoriesService } from './features/memories/memories.service.ts';
import { healthRoutes } from './features/health/health.routes.ts';
import { createToolModel } from './features/assistant/assistant.llm.ts';
import { assistantRoutes } from './features/assistant/assistant.routes.ts';
import { createAssistantService } from './features/assistant/assistant.service.ts';
import { createAdminRepository } from './features/admin/admin.repository.ts';
import { adminRoutes } from './features/admin/admin.routes.ts';
import { createAdminService } from './features/admin/admin.service.ts';
import { createAiMonitor, type AiMonitor } from './features/admin/ai-monitor.ts';
import { auditPlugin } from './features/admin/audit.plugin.ts';
import { createAuditRepository } from './features/admin/audit.repository.ts';
import { createBackupsService, type BackupsService } from './features/admin/backups.service.ts';
import { createSecurityService } from './features/admin/security.service.ts';
import { createHealthService } from './features/health/health.service.ts';
import { authPlugin } from './plugins/auth.ts';
import { registerErrorHandler } from './plugins/error-handler.ts';
import { registerSameOrigin } from './plugins/same-origin.ts';
import { registerTextInputCheck } from './plugins/text-input.ts';
import { registerRealtime } from './plugins/realtime.ts';

export interface AppDeps {
  env: Env;
  database: Database;
  city: CityConfig;
  sessionSecret: string;
  clock?: Clock;
  oidc?: OidcAdapter | null;
  /** Directory of the built web app; omitted in API-only tests. */
  webDir?: string | null;
  logger?: FastifyServerOptions['logger'];
  /** Outgoing fetch for sources; defaults to the guarded fetch (plus demo:// feeds). */
  fetch?: SafeFetch;
  /** Run sources on their intervals (npm start); tests leave it off or shorten the minute. */
  scheduler?: false | { unitSeconds?: number; pollingIntervalSeconds?: number };
  /** Without a scheduler here, on PostgreSQL: queue sources' runs for the instance that runs them. */
  queueClient?: boolean;
  /** The flyer scanner's OCR; defaults to the tesseract pool, whose workers start on the first scan. */
  ocr?: OcrReader;
}

declare module 'fastify' {
  interface FastifyInstance {
    bus: EventBus;
    scheduler: Scheduler | null;
    realtime: Awaited<ReturnType<typeof registerRealtime>>;
    ingest: { service: IngestionService; sources: SourcesRepository };
    /** The image cache; it runs by itself only with the scheduler (tests call `drain()`). */
    images: ImageJob;
    /** Latency and engine of each AI feature; wrap a feature's LLM client with `aiMonitor.wrapLlm(feature, llm)`. */
    aiMonitor: AiMonitor;
    /** Scheduled backups of the embedded database (null on PostgreSQL); main.ts starts the schedule. */
    backups: BackupsService | null;
  }
}

export const defaultWebDir = fileURLToPath(new URL('../../dist/web', import.meta.url));

/** Builds the whole server without listening: used by `npm start`, tests and benchmarks. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { env, database, city } = deps;
  const clock = deps.clock ?? systemClock;
  const production = env.NODE_ENV === 'production';
  const httpsPublic = env.PUBLIC_URL?.startsWith('https://') ?? false;

  const app = Fastify({
    logger: deps.logger ?? { level: env.LOG_LEVEL },
    bodyLimit: 1024 * 1024,
    trustProxy: env.TRUST_PROXY,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app, { db: database.db, clock });

  // Once closing starts, ask keep-alive clients to leave so shutdown is not held up.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', async (_req, reply) => {
    if (closing) reply.header('connection', 'close');
  });

  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
        mediaSrc: ["'self'", 'blob:'],
        fontSrc: ["'self'"],
        connectSrc: ["'self'", 'ws:', 'wss:'],
        workerSrc: ["'self'", 'blob:'],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        ...(httpsPublic ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    // HSTS only makes sense when the public address is HTTPS.
    hsts: httpsPublic ? { maxAge: 15552000 } : false,
    crossOriginEmbedderPolicy: false,
  });
  // Answers up to 64 KiB are compressed in one call: on two cores the plugin's default (8 KiB)
  // sent a 24-card page (16 KiB) through a zlib stream per response, 2.7 to 3.6 ms an answer in
  // inject against 1.3 ms in one call (0.9 uncompressed; 100,000 events); every browser asks
  // for compression.
  await app.register(compress, { threshold: COMPRESS_THRESHOLD, syncThreshold: 65536 });
  await app.register(cookie, { secret: deps.sessionSecret });
  // Limits count in the database, so every worker and instance on it counts together.
  const rateCounter = createRateLimitCounter(database.db);
  await app.register(rateLimit, { global: false, store: sharedRateLimitStore(rateCounter) });
  registerSameOrigin(app, env.PUBLIC_URL);
  registerTextInputCheck(app);

  const authRepo = createAuthRepository(database.db);
  const auth = createAuthService({ repo: authRepo, clock, adminEmails: env.ADMIN_EMAILS, limits: rateCounter });
  await app.register(authPlugin, { auth });
  const audit = createAuditRepository(database.db);
  await app.register(auditPlugin, { audit, clock });
  const aiMonitor = createAiMonitor(() => clock.now());
  app.decorate('aiMonitor', aiMonitor);

  await app.register(authRoutes, { auth, oidc: deps.oidc ?? null, secureCookies: production || httpsPublic, perMinute: env.AUTH_RATE_LIMIT });
  const bus = createEventBus();
  app.decorate('bus', bus);
  const realtime = await registerRealtime(app, { database, bus, publicUrl: env.PUBLIC_URL });
  app.decorate('realtime', realtime);
  const duplicates = createDuplicatesService({ db: database.db, clock, bus, unit: city.distanceUnit });
  const events = createEventsService({ db: database.db, clock, city, bus, afterApproved: (id, adminId) => duplicates.mergeOnApproval(id, adminId), log: app.log });
  const health = createHealthService({ db: database.db, clock, startedAt: clock.now(), scheduler: () => (app.hasDecorator('scheduler') ? app.scheduler : null), eventCounts: (now) => events.stats(now) });
  await app.register(healthRoutes, { health });
  await app.register(eventsRoutes, { events, users: authRepo, clock, publicUrl: env.PUBLIC_URL, cityName: city.name });

  const fetch =
    deps.fetch ??
    createDemoFetch({ now: () => clock.now(), timeZone: city.timeZone, next: createSafeFetch({ allowPrivate: env.ALLOW_PRIVATE_SOURCES }) });
  const sourcesRepo = createSourcesRepository(database.db);
  // The model endpoint is admin configuration: plain fetch, not the guarded one used for feeds.
  const llm = aiMonitor.wrapLlm('classification', createLlmClient({ baseUrl: env.LLM_BASE_URL, apiKey: env.LLM_API_KEY, model: env.LLM_MODEL }));
  const ingestion = createIngestionService({ db: database.db, clock, city, fetch, bus, llm, log: app.log, mergeThreshold: (db) => duplicates.mergeThreshold(createDuplicatesRepository(db)) });
  // Planner statistics are kept by the app: PGlite has no autovacuum, and a server's may be off or behind (statistics.ts).
  const statistics = createStatisticsKeeper(database);
  // Not awaited: a database keeps its statistics on disk between starts, so they are refreshed
  // behind the first requests instead of before the server answers (0.1 to 0.5 s on PGlite).
  void statistics.now();
  bus.subscribe('event_update', () => statistics.changed());
  app.addHook('onClose', async () => statistics.stop());
  const scheduler = deps.scheduler ? createScheduler({ database, sources: sourcesRepo, ingestion, log: app.log, ...deps.scheduler }) : null;
  app.decorate('scheduler', scheduler);
  app.decorate('ingest', { service: ingestion, sources: sourcesRepo });
  if (scheduler) app.addHook('onClose', async () => scheduler.stop());
  // Once, by the instance that runs the queue: merges from before merges filled the kept row.
  if (scheduler) {
    app.addHook('onReady', async () => {
      void duplicates
        .fillEarlierMerges()
        .then((ids) => ids.length && app.log.info({ events: ids.length }, 'filled events merged before merges filled them'))
        .catch((err: unknown) => app.log.error({ err }, 'could not fill events merged earlier'));
    });
  }
  // Another instance runs the queue (a cluster's other workers): sources edited here are queued there.
  const queue = scheduler ?? (deps.queueClient && database.url ? createSchedulerClient({ url: database.url, log: app.log }) : null);
  if (queue && !scheduler) app.addHook('onClose', async () => queue.stop());
  await app.register(sourcesRoutes, { sources: createSourcesService({ sources: sourcesRepo, ingestion, scheduler: queue }), ingestion });
  await app.register(duplicatesRoutes, { duplicates });
  const images = createImagesService({ db: database.db, clock, fetch, isDemoUrl: isDemoImageUrl, log: app.log });
  app.decorate('images', createImageJob({ images, bus, log: app.log }));
  if (deps.scheduler) {
    app.images.start();
    app.addHook('onClose', async () => app.images.stop());
  }
  await app.register(imagesRoutes, { images });
  await app.register(gamingRoutes, { gaming: createGamingService({ db: database.db, clock, city, bus }) });
  await app.register(notificationsRoutes, { notifications: createNotificationsService({ db: database.db, clock, bus }) });
  const qrKey = createHmac('sha256', deps.sessionSecret).update('qr').digest();
  const qr = createQrService({ db: database.db, clock, city, bus, key: qrKey });
  await app.register(qrRoutes, { qr });
  const rawOcr = deps.ocr ?? createOcrPool();
  const ocr: OcrReader = { read: (image) => aiMonitor.time('ocr', () => rawOcr.read(image)), close: () => rawOcr.close() };
  if (!deps.ocr) app.addHook('onClose', async () => ocr.close());
  await app.register(scanRoutes, { scan: createScanService({ db: database.db, clock, city, bus, ocr, ingestion, qr }) });
  await app.register(vendorsPlugin, { db: database.db, clock, bus });
  await app.register(shopPlugin, { db: database.db, clock, bus });
  const adminRepo = createAdminRepository(database.db);
  const adminService = createAdminService({
    repo: adminRepo,
    clock,
    timeZone: city.timeZone,
    health,
    databaseKind: database.kind,
    live: { endpoints: () => app.accessRules.filter((r) => r.url.startsWith('/api')).length, connections: () => app.realtime.connections(), aiModel: () => llm?.model ?? null, aiFailing: () => aiMonitor.modelFailing() },
  });
  const backup = database.backup;
  const backups = backup
    ? createBackupsService({
        backup: () => backup(),
        dir: resolve(env.BACKUP_DIR ?? join(env.DATA_DIR, 'backups')),
        everyHours: env.BACKUP_EVERY_HOURS,
        keepDays: env.BACKUP_KEEP_DAYS,
        clock,
        log: app.log,
        recordError: (message) => audit.recordError({ origin: 'backup', message, at: clock.now() }),
      })
    : null;
  app.decorate('backups', backups);
  if (backups) app.addHook('onClose', async () => backups.stop());
  await app.register(adminRoutes, { admin: adminService, audit, security: createSecurityService({ app, env, database, admin: adminRepo }), ai: aiMonitor, languageModel: llm ? { model: llm.model } : null, clock, database, backups });
  await app.register(storiesFeature, { db: database.db, clock, city, bus, llm: aiMonitor.wrapLlm('stories', createLlmClient({ baseUrl: env.LLM_BASE_URL, apiKey: env.LLM_API_KEY, model: env.LLM_MODEL })), timer: aiMonitor });
  await app.register(assistantRoutes, { assistant: createAssistantService({ database, clock, timeZone: city.timeZone, city, health, events, ingestion, audit: createAuditRepository(database.db), scheduler: () => app.scheduler, images: () => app.images, model: createToolModel({ baseUrl: env.LLM_BASE_URL, apiKey: env.LLM_API_KEY, model: env.LLM_MODEL }), timer: aiMonitor, log: app.log }) });
  await app.register(signalsRoutes, { db: database.db, clock, city });
  await app.register(recommendationsRoutes, { db: database.db, clock, city, bus });
  const arService = createArService({ db: database.db, clock, city, bus });
  await app.register(arRoutes, { ar: arService, ownerOf: async (id) => (await createArRepository(database.db).findDiscovery(id))?.userId ?? null });
  await app.register(memoriesRoutes, { memories: createMemoriesService({ db: database.db, clock, city, llm: aiMonitor.wrapLlm('memory_forge', createLlmClient({ baseUrl: env.LLM_BASE_URL, apiKey: env.LLM_API_KEY, model: env.LLM_MODEL })), log: app.log, timer: aiMonitor }) });
  await app.register(questsRoutes, { quests: createQuestsService({ db: database.db, clock, bus, timeZone: city.timeZone }) });
  app.get('/api/config', { schema: { response: { 200: PublicConfig } }, config: { access: 'public' } }, async () => ({ city, oidc: Boolean(deps.oidc), mapTileUrl: env.MAP_TILE_URL ?? null }));

  const webDir = deps.webDir === undefined ? defaultWebDir : deps.webDir;
  const spa = Boolean(webDir && existsSync(webDir));
  if (spa && webDir) {
    await app.register(fastifyStatic, {
      root: webDir,
      wildcard: true,
      index: 'index.html',
      setHeaders(res, path) {
        // Vite's content-hashed bundles never change; everything else is revalidated.
        if (/\/assets\/[^/]+-[\w-]{8}\.(js|css|woff2?)$/.test(path)) res.header('cache-control', 'public, max-age=31536000, immutable');
        else res.header('cache-control', 'no-cache');
      },
    });
  }
  // SPA fallback: GET paths outside /api without a file extension get the app shell; the rest a JSON 404.
  app.setNotFoundHandler((req, reply) => {
    const path = req.url.split('?')[0] ?? '/';
    if (spa && req.method === 'GET' && !path.startsWith('/api') && !/\.[a-z0-9]+$/i.test(path)) {
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    return reply.status(404).send({ code: 'not_found', message: `No route for ${req.method} ${path}` });
  });

  return app;
}
