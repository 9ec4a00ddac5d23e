import { test, expect, request, type Page } from '@playwright/test';
import { hasChromium, NO_CHROMIUM, newUser } from './fixtures.ts';
import { SEED } from './seed-events.ts';

// Listings that tell the truth, on screen: a weekly series is one card, and the attendee count
// moves while someone is looking at it.

// Skipped only on a machine without Debian's Chromium (a developer's): in CI hasChromium is true and
// playwright.config.ts fails the run when Chromium is missing, so these tests always run there.
test.skip(!hasChromium, NO_CHROMIUM); // Reason: Chromium is absent on this machine; CI installs it and fails the run without it.
test.describe.configure({ timeout: 60_000 });

/** A signed-in browser page of a fresh member, and the member's API context. */
async function member(browser: import('@playwright/test').Browser, baseURL: string) {
  const api = await request.newContext({ baseURL });
  const res = await api.post('/api/auth/signup', { data: newUser(), headers: { origin: baseURL } });
  expect(res.status(), await res.text()).toBe(201);
  const context = await browser.newContext({ storageState: await api.storageState() });
  return { page: await context.newPage(), api, close: async () => (await context.close(), await api.dispose()) };
}

const cardsTitled = (page: Page, title: string) => page.getByRole('region', { name: /^All Events/ }).getByRole('article').filter({ has: page.getByRole('heading', { name: title, exact: true }) });

test("a weekly series shows as one card with its further dates, and its page lists them", async ({ browser, baseURL }) => {
  const { page, close } = await member(browser, baseURL!);
  try {
    await page.goto('/dashboard?search=Tuesday%20Jazz%20Jam');
    const cards = cardsTitled(page, 'Tuesday Jazz Jam');
    await expect(cards).toHaveCount(1);
    const more = cards.getByTestId('more-dates');
    await expect(more).toHaveText(/\+\d+ more dates?/);
    const n = Number(/\+(\d+)/.exec((await more.textContent()) ?? '')![1]);
    expect(n).toBeGreaterThanOrEqual(1);

    await cards.getByRole('link', { name: 'Tuesday Jazz Jam' }).click();
    const dates = page.getByTestId('series-dates');
    await expect(dates).toContainText(`${n + 1} upcoming dates`);
    const others = dates.getByRole('link');
    await expect(others).toHaveCount(Math.min(n, 7));
    const firstUrl = page.url();
    await others.first().click();
    await expect(page).not.toHaveURL(firstUrl);
    await expect(page.getByRole('heading', { level: 1, name: 'Tuesday Jazz Jam' })).toBeVisible();
  } finally {
    await close();
  }
});

test('the attendee count on an event page moves when someone else saves the event', async ({ browser, baseURL }) => {
  const viewer = await member(browser, baseURL!);
  const saver = await member(browser, baseURL!);
  try {
    const found = (await (await viewer.api.get(`/api/events?search=${encodeURIComponent(SEED.quokka)}`)).json()) as { id: string; title: string; attendeeCount: number }[];
    const event = found.find((e) => e.title === SEED.quokka)!;
    await viewer.page.goto(`/events/${event.id}`);
    const count = viewer.page.getByTestId('attendee-count');
    await expect(count).toHaveText(/^\d+ attendees?$/);
    const before = Number(/^(\d+)/.exec((await count.textContent()) ?? '')![1]);

    const saved = await saver.api.post(`/api/user/favorites/${event.id}`, { headers: { origin: baseURL! } });
    expect(saved.status()).toBe(200);
    // Live, over /ws: no reload.
    await expect(count).toHaveText(`${before + 1} ${before + 1 === 1 ? 'attendee' : 'attendees'}`);
    // Back to where it was, for the other tests.
    expect((await saver.api.post(`/api/user/favorites/${event.id}`, { headers: { origin: baseURL! } })).status()).toBe(200);
    await expect(count).toHaveText(`${before} ${before === 1 ? 'attendee' : 'attendees'}`);
  } finally {
    await viewer.close();
    await saver.close();
  }
});
