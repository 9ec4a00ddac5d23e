import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  FeatureBody,
  GenerateBody,
  LikeBody,
  LikeResponse,
  ReportBody,
  ReportResponse,
  ReviewBody,
  ReviewResponse,
  StoriesQuery,
  StoriesResponse,
  Story,
  StoryBody,
  StoryCreated,
  StoryParams,
  ViewResponse,
} from '../../../contract/stories.ts';
import { perUser, signedIn } from '../../plugins/auth.ts';
import { createStoriesService, type StoriesDeps, type StoriesService } from './stories.service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The stories service, for the demo seeder. */
    stories: StoriesService;
  }
}

/** Stories a member may submit a minute (points are capped per day anyway; this stops floods). */
export const STORY_SUBMITS_PER_MINUTE = 20;
/** Generation may call a language model: a few a minute. */
export const STORY_GENERATIONS_PER_MINUTE = 10;

/** The stories calls (spec section 7) and their moderation and generation. */
export async function storiesRoutes(app: FastifyInstance, deps: { stories: StoriesService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { stories } = deps;

  r.get('/api/stories', { schema: { querystring: StoriesQuery, response: { 200: StoriesResponse } }, config: { access: 'user' } }, async (req) =>
    stories.list(signedIn(req), req.query),
  );

  r.post(
    '/api/stories',
    {
      schema: { body: StoryBody, response: { 201: StoryCreated } },
      config: { access: 'user', rateLimit: { max: STORY_SUBMITS_PER_MINUTE, timeWindow: '1 minute', keyGenerator: perUser } },
    },
    async (req, reply) => reply.status(201).send(await stories.create(signedIn(req), req.body)),
  );

  r.post(
    '/api/stories/generate',
    {
      schema: { body: GenerateBody, response: { 201: Story } },
      config: { access: 'admin', rateLimit: { max: STORY_GENERATIONS_PER_MINUTE, timeWindow: '1 minute', keyGenerator: perUser } },
    },
    async (req, reply) => reply.status(201).send(await stories.generate(req.body, signedIn(req))),
  );

  r.get('/api/stories/:id', { schema: { params: StoryParams, response: { 200: Story } }, config: { access: 'user' } }, async (req) => stories.get(signedIn(req), req.params.id));

  r.post('/api/stories/:id/like', { schema: { params: StoryParams, body: LikeBody, response: { 200: LikeResponse } }, config: { access: 'user' } }, async (req) =>
    stories.like(signedIn(req), req.params.id, req.body?.liked),
  );

  r.post('/api/stories/:id/view', { schema: { params: StoryParams, response: { 200: ViewResponse } }, config: { access: 'user' } }, async (req) =>
    stories.view(signedIn(req), req.params.id),
  );

  r.post('/api/stories/:id/report', { schema: { params: StoryParams, body: ReportBody, response: { 200: ReportResponse } }, config: { access: 'user' } }, async (req) =>
    stories.report(signedIn(req), req.params.id, req.body?.reason),
  );

  r.post('/api/stories/:id/review', { schema: { params: StoryParams, body: ReviewBody, response: { 200: ReviewResponse } }, config: { access: 'admin' } }, async (req) =>
    stories.review(signedIn(req), req.params.id, req.body.action),
  );

  r.patch('/api/stories/:id', { schema: { params: StoryParams, body: FeatureBody, response: { 200: Story } }, config: { access: 'admin' } }, async (req) =>
    stories.feature(signedIn(req), req.params.id, req.body.featured),
  );
}

/**
 * The stories feature in one registration: builds the service, exposes it as `app.stories` (the
 * demo seeder writes through it) and registers the routes.
 */
export const storiesFeature = fp(async (app: FastifyInstance, deps: Omit<StoriesDeps, 'log'>) => {
  const stories = createStoriesService({ ...deps, log: app.log });
  app.decorate('stories', stories);
  await app.register(storiesRoutes, { stories });
});
