import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { StoriesResponse, Story, StoryCreated } from '../../../contract/stories.ts';
import { buildTestApp, TEST_ORIGIN, type TestApp } from '../../test/build-test-app.ts';
import { buildEvent, queryRows } from '../../test/factories.ts';
import { startFakeLlm } from '../../test/llm-server.ts';
import { newUser } from '../gaming/test-users.ts';
import { seedStoriesDemo } from './stories.demo.ts';

const NOW = new Date('2026-11-18T20:00:00Z'); // Wednesday noon in Portland

let t: TestApp;
let admin: string;

const call = (app: FastifyInstance, method: 'GET' | 'POST' | 'PATCH', url: string, cookie?: string, payload?: unknown) =>
  app.inject({ method, url, headers: { origin: TEST_ORIGIN, ...(cookie ? { cookie } : {}) }, ...(payload !== undefined ? { payload: payload as object } : {}) });

const share = (cookie: string, body: Record<string, unknown>) => call(t.app, 'POST', '/api/stories', cookie, body);
const list = async (cookie: string, query = '') => {
  const res = await call(t.app, 'GET', `/api/stories${query}`, cookie);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<StoriesResponse>();
};
const good = { title: 'The porch concert', content: 'Sixty neighbours came with chairs.', author: 'Lena' };

beforeAll(async () => {
  t = await buildTestApp();
  admin = (await newUser(t.app)).cookie; // the first account is the admin
});
afterAll(async () => t.close());
beforeEach(async () => {
  t.clock.set(NOW);
  await t.database.db.execute(sql`truncate stories, events, venues, point_awards, user_badges, notifications cascade`);
});

describe('POST /api/stories', () => {
  it('answers 401 signed out, before reading the body', async () => {
    const res = await call(t.app, 'POST', '/api/stories', undefined, { title: '' });
    expect(res.statusCode).toBe(401);
  });

  it('refuses a story without title or author, with empty or too long content, or a bad category, naming the field', async () => {
    const { cookie } = await newUser(t.app);
    const cases: [Record<string, unknown>, string][] = [
      [{ content: 'x', author: 'A' }, 'body.title'],
      [{ ...good, title: '   ' }, 'body.title'],
      [{ title: 'T', content: 'x' }, 'body.author'],
      [{ ...good, content: '' }, 'body.content'],
      [{ ...good, content: '   ' }, 'body.content'],
      [{ ...good, content: 'x'.repeat(5001) }, 'body.content'],
      [{ ...good, category: 'gossip' }, 'body.category'],
    ];
    for (const [body, field] of cases) {
      const res = await share(cookie, body);
      expect(res.statusCode, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(res.json().message).toContain(field);
    }
    expect((await list(cookie)).stories).toHaveLength(0);
  });

  it('saves a story of exactly 5000 characters, defaults the category to community and pays 20 points', async () => {
    const { cookie, user } = await newUser(t.app);
    const res = await share(cookie, { ...good, content: 'y'.repeat(5000) });
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json<StoryCreated>();
    expect(created.story).toMatchObject({ title: good.title, author: 'Lena', category: 'community', likes: 0, views: 0, aiGenerated: false, featured: false, likedByMe: false });
    expect(created.story.content).toHaveLength(5000);
    expect(created.pointsEarned).toBe(20);
    const awards = await queryRows<{ points: number; activity_type: string }>(t.database.db, sql`select points, activity_type from point_awards where user_id = ${user.id}`);
    expect(awards).toEqual([{ points: 20, activity_type: 'story_shared' }]);
  });

  it('counts shared stories for the social badge, and past the daily cap saves the story without points', async () => {
    const { cookie, user } = await newUser(t.app);
    const earned: { title: string; points: number }[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await share(cookie, { ...good, title: `Story ${i}` });
      expect(res.statusCode).toBe(201);
      earned.push(...res.json<StoryCreated>().badges);
    }
    // Badges are named as earned; they pay nothing themselves (Explorer's 50 is the total that reached it).
    expect(earned.map((b) => b.title)).toContain('Explorer');
    expect(earned.every((b) => b.points === 0)).toBe(true);
    const badges = await queryRows<{ badge_type: string }>(t.database.db, sql`select badge_type from user_badges where user_id = ${user.id}`);
    expect(badges.map((b) => b.badge_type)).toContain('social');
    const fourth = await share(cookie, { ...good, title: 'Story 4' });
    expect(fourth.statusCode).toBe(201);
    expect(fourth.json<StoryCreated>()).toMatchObject({ pointsEarned: 0, message: expect.stringContaining('Daily limit') });
    expect((await list(cookie)).metadata.userSubmitted).toBe(4);
  });
});

describe('GET /api/stories', () => {
  it('lists newest first, filters by category and counts the whole collection', async () => {
    const { cookie } = await newUser(t.app);
    await share(cookie, { ...good, title: 'A legend', category: 'legend' });
    t.clock.set(new Date(NOW.getTime() + 60_000));
    await share(cookie, { ...good, title: 'A history', category: 'history' });
    // A minute apart each: stories order by creation time, and equal times have no order.
    t.clock.set(new Date(NOW.getTime() + 120_000));
    await call(t.app, 'POST', '/api/stories/generate', admin, { category: 'mystery', place: 'Sellwood' });

    const all = await list(cookie);
    expect(Object.keys(all).sort()).toEqual(['categories', 'featured', 'metadata', 'stories']);
    expect(all.categories).toEqual(['legend', 'history', 'mystery', 'community']);
    expect(all.stories.map((s) => s.title).slice(1)).toEqual(['A history', 'A legend']);
    expect(all.metadata).toEqual({ totalStories: 3, aiGenerated: 1, userSubmitted: 2 });
    expect(all.featured).toEqual([]);
    expect(all.stories[0]!.moderation).toBeUndefined();

    const legends = await list(cookie, '?category=legend');
    expect(legends.stories.map((s) => s.title)).toEqual(['A legend']);
    expect(legends.metadata.totalStories).toBe(3);
    expect((await list(cookie, '?category=all')).stories).toHaveLength(3);
    const bad = await call(t.app, 'GET', '/api/stories?category=gossip', cookie);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('querystring.category');
  });

  it('lists featured stories once an admin features them; members may not', async () => {
    const { cookie } = await newUser(t.app);
    const story = (await share(cookie, good)).json<StoryCreated>().story;
    const member = await call(t.app, 'PATCH', `/api/stories/${story.id}`, cookie, { featured: true });
    expect(member.statusCode).toBe(403);
    const res = await call(t.app, 'PATCH', `/api/stories/${story.id}`, admin, { featured: true });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<Story>().featured).toBe(true);
    expect((await list(cookie)).featured.map((s) => s.id)).toEqual([story.id]);
    expect((await list(cookie, '?category=legend')).featured).toEqual([]);
  });
});

describe('likes and views', () => {
  it('toggles one like per member, answers { liked, likes }, and a set with { liked } is idempotent', async () => {
    const a = await newUser(t.app);
    const b = await newUser(t.app);
    const story = (await share(a.cookie, good)).json<StoryCreated>().story;
    const like = (cookie: string, body?: unknown) => call(t.app, 'POST', `/api/stories/${story.id}/like`, cookie, body);

    expect((await like(a.cookie)).json()).toEqual({ liked: true, likes: 1 });
    expect((await like(b.cookie)).json()).toEqual({ liked: true, likes: 2 });
    expect((await like(a.cookie)).json()).toEqual({ liked: false, likes: 1 });
    // Setting instead of toggling: a retried request changes nothing.
    expect((await like(a.cookie, { liked: true })).json()).toEqual({ liked: true, likes: 2 });
    expect((await like(a.cookie, { liked: true })).json()).toEqual({ liked: true, likes: 2 });
    expect((await like(b.cookie, { liked: false })).json()).toEqual({ liked: false, likes: 1 });
    expect((await like(b.cookie, { liked: false })).json()).toEqual({ liked: false, likes: 1 });
    const seen = await list(a.cookie);
    expect(seen.stories[0]).toMatchObject({ likes: 1, likedByMe: true });
    expect((await list(b.cookie)).stories[0]).toMatchObject({ likes: 1, likedByMe: false });
    expect((await call(t.app, 'POST', '/api/stories/4b1e8f0a-2c3d-4e5f-8a9b-0c1d2e3f4a5b/like', a.cookie)).statusCode).toBe(404);
  });

  it('counts a view once per member per local day', async () => {
    const a = await newUser(t.app);
    const b = await newUser(t.app);
    const story = (await share(a.cookie, good)).json<StoryCreated>().story;
    const view = (cookie: string) => call(t.app, 'POST', `/api/stories/${story.id}/view`, cookie).then((r) => r.json());
    expect(await view(a.cookie)).toEqual({ views: 1, counted: true });
    expect(await view(a.cookie)).toEqual({ views: 1, counted: false });
    expect(await view(b.cookie)).toEqual({ views: 2, counted: true });
    // 23:30 the same day in Portland is still the same local day; 00:30 the next is not.
    t.clock.set('2026-11-19T07:30:00Z');
    expect(await view(a.cookie)).toEqual({ views: 2, counted: false });
    t.clock.set('2026-11-19T08:30:00Z');
    expect(await view(a.cookie)).toEqual({ views: 3, counted: true });
    expect((await list(b.cookie)).stories[0]!.views).toBe(3);
  });
});

describe('reports and review', () => {
  it('hides a story after three members report it, until an admin restores it', async () => {
    const author = await newUser(t.app);
    const story = (await share(author.cookie, good)).json<StoryCreated>().story;
    const report = (cookie: string) => call(t.app, 'POST', `/api/stories/${story.id}/report`, cookie, { reason: 'spam' });
    const [r1, r2, r3] = [await newUser(t.app), await newUser(t.app), await newUser(t.app)];

    expect((await report(r1.cookie)).json()).toEqual({ reported: true, hidden: false });
    // The same member twice counts once.
    expect((await report(r1.cookie)).json()).toEqual({ reported: true, hidden: false });
    expect((await report(r2.cookie)).json()).toEqual({ reported: true, hidden: false });
    expect((await list(author.cookie)).stories[0]!.reportedByMe).toBe(false);
    expect((await report(r3.cookie)).json()).toEqual({ reported: true, hidden: true });

    expect((await list(author.cookie)).stories).toHaveLength(0);
    expect((await list(author.cookie)).metadata.totalStories).toBe(0);
    expect((await call(t.app, 'POST', `/api/stories/${story.id}/like`, author.cookie)).statusCode).toBe(404);
    const forAdmin = await list(admin);
    expect(forAdmin.stories[0]!.moderation).toMatchObject({ hiddenAt: NOW.toISOString(), reports: 3 });

    expect((await call(t.app, 'POST', `/api/stories/${story.id}/review`, r1.cookie, { action: 'restore' })).statusCode).toBe(403);
    expect((await call(t.app, 'POST', `/api/stories/${story.id}/review`, admin, { action: 'hide' })).statusCode).toBe(400);
    const restored = await call(t.app, 'POST', `/api/stories/${story.id}/review`, admin, { action: 'restore' });
    expect(restored.statusCode, restored.body).toBe(200);
    expect(restored.json().story.moderation).toMatchObject({ hiddenAt: null, reviewedAt: NOW.toISOString() });
    expect((await list(author.cookie)).stories.map((s) => s.id)).toEqual([story.id]);

    // Reports from before the review do not count again.
    t.clock.advance(1000);
    expect((await report(author.cookie)).json()).toEqual({ reported: true, hidden: false });
  });

  it('lets an admin remove a reported story', async () => {
    const author = await newUser(t.app);
    const story = (await share(author.cookie, good)).json<StoryCreated>().story;
    const res = await call(t.app, 'POST', `/api/stories/${story.id}/review`, admin, { action: 'remove' });
    expect(res.json()).toEqual({ action: 'remove', story: null });
    expect((await list(author.cookie)).stories).toHaveLength(0);
  });
});

describe('POST /api/stories/generate', () => {
  it('is for admins only', async () => {
    const { cookie } = await newUser(t.app);
    expect((await call(t.app, 'POST', '/api/stories/generate', cookie, {})).statusCode).toBe(403);
  });

  it('writes a story of a named place from its past events, marked as generated by the built-in engine', async () => {
    await buildEvent(t.database.db, { title: 'Riverside Lantern Parade', neighbourhood: 'Sellwood', venueName: 'Oaks Pier', category: 'Arts', startDate: new Date('2026-10-03T02:00:00Z') });
    await buildEvent(t.database.db, { title: 'Future Fair', neighbourhood: 'Sellwood', venueName: 'Oaks Pier', startDate: new Date('2026-12-03T02:00:00Z') });
    const res = await call(t.app, 'POST', '/api/stories/generate', admin, { category: 'history', place: 'sellwood' });
    expect(res.statusCode, res.body).toBe(201);
    const story = res.json<Story>();
    expect(story).toMatchObject({ category: 'history', aiGenerated: true, generator: 'built-in', author: 'Townbeat Story Engine' });
    expect(story.content).toContain('Riverside Lantern Parade');
    expect(story.content).toContain('Oaks Pier');
    expect(story.content).not.toContain('Future Fair'); // not held yet
    // A venue of a past event is a place too.
    const venue = await call(t.app, 'POST', '/api/stories/generate', admin, { category: 'legend', place: 'Oaks Pier' });
    expect(venue.json<Story>().content).toContain('Oaks Pier');
    const unknown = await call(t.app, 'POST', '/api/stories/generate', admin, { place: 'Atlantis' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toMatch(/^place/);
  });

  it('without a place writes about the places least written about', async () => {
    const titles = new Set<string>();
    for (let i = 0; i < 3; i++) {
      t.clock.advance(1000);
      const s = (await call(t.app, 'POST', '/api/stories/generate', admin, { category: 'history' })).json<Story>();
      titles.add(s.title);
    }
    expect(titles.size).toBe(3);
  });
});

describe('demo stories', () => {
  it('seeds generated and invented stories once, marked as demo, two of them featured', async () => {
    const seeded = await seedStoriesDemo(t.app);
    expect(seeded.rows).toBeGreaterThanOrEqual(10);
    expect((await seedStoriesDemo(t.app)).rows).toBe(0);
    const res = await list(admin);
    expect(res.stories.every((s) => s.isDemo)).toBe(true);
    expect(res.metadata.aiGenerated).toBe(4);
    expect(res.metadata.userSubmitted).toBe(8);
    expect(res.featured.length).toBeGreaterThanOrEqual(2);
    expect(res.featured.some((s) => s.aiGenerated)).toBe(true);
    // Written from the events past at seeding: dated then, not days before what they tell.
    const now = t.clock.now().getTime();
    for (const s of res.stories.filter((x) => x.aiGenerated)) expect(now - new Date(s.createdAt).getTime()).toBeLessThan(10 * 60_000);
  });
});

describe('with a language model configured', () => {
  it('lets the model write the story from the place’s facts, and falls back to the built-in engine when it fails', async () => {
    const llm = await startFakeLlm();
    const m = await buildTestApp({ env: { LLM_BASE_URL: llm.baseUrl, LLM_MODEL: 'story-model' } });
    try {
      m.clock.set(NOW);
      const mAdmin = (await newUser(m.app)).cookie;
      await buildEvent(m.database.db, { title: 'Chess Under the Oak', neighbourhood: 'Sellwood', venueName: 'Sellwood Park', startDate: new Date('2026-10-04T17:00:00Z') });
      llm.set(() => ({ content: JSON.stringify({ title: 'The Oak of Sellwood', content: 'Under the oak in Sellwood Park, neighbours played chess.' }) }));
      const res = await call(m.app, 'POST', '/api/stories/generate', mAdmin, { category: 'legend', place: 'Sellwood' });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json<Story>()).toMatchObject({ title: 'The Oak of Sellwood', aiGenerated: true, generator: 'story-model' });
      const prompt = llm.requests[0]!.body.messages!.map((x) => x.content).join('\n');
      expect(prompt).toContain('Chess Under the Oak');
      expect(prompt).toContain('legend');
      expect(llm.requests[0]!.body.response_format).toEqual({ type: 'json_object' });

      llm.set(() => ({ status: 500, body: 'overloaded' }));
      const fallback = await call(m.app, 'POST', '/api/stories/generate', mAdmin, { category: 'history', place: 'Sellwood' });
      expect(fallback.json<Story>()).toMatchObject({ generator: 'built-in', aiGenerated: true });
      expect(fallback.json<Story>().content).toContain('Chess Under the Oak');

      llm.set(() => ({ content: '{"title": ""}' }));
      const wrong = await call(m.app, 'POST', '/api/stories/generate', mAdmin, { category: 'history', place: 'Sellwood' });
      expect(wrong.json<Story>().generator).toBe('built-in');
    } finally {
      await m.close();
      await llm.close();
    }
  });
});
