import { expect, test, type Browser } from '@playwright/test';
import config from '../playwright.config.ts';
import { hasChromium, NO_CHROMIUM, newUser } from './fixtures.ts';

// Skipped only on a machine without Debian's Chromium (a developer's): in CI hasChromium is true and
// playwright.config.ts fails the run when Chromium is missing, so these tests always run there.
test.skip(!hasChromium, NO_CHROMIUM); // Reason: Chromium is absent on this machine; CI installs it and fails the run without it.

// Chromium's fake camera (a test pattern) and auto-accepted permission prompt, on top of the config's flags.
test.use({
  launchOptions: {
    ...config.use?.launchOptions,
    args: [...(config.use?.launchOptions?.args ?? []), '--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream'],
  },
});

const CENTRE = { latitude: 45.5152, longitude: -122.6784 };

/** A brand-new member in a fresh context, signed up through the API (its cookie is the context's). */
async function memberPage(browser: Browser, baseURL: string, options: Parameters<Browser['newContext']>[0] = {}) {
  const context = await browser.newContext({ baseURL, ...options });
  const res = await context.request.post('/api/auth/signup', { data: newUser(), headers: { origin: baseURL } });
  expect(res.status(), await res.text()).toBe(201);
  return { context, page: await context.newPage() };
}

test('Start AR shows the camera and real nearby demo events, records the session once, and Stop AR ends the tracks', async ({ browser, baseURL }) => {
  const { context, page } = await memberPage(browser, baseURL!, { permissions: ['camera', 'geolocation'], geolocation: CENTRE });
  // Stand right next to a real upcoming demo event, so the default 1 km radius holds it.
  const around = await context.request.post('/api/ar/nearby-events', { data: { lat: CENTRE.latitude, lng: CENTRE.longitude, radius: 20_000 }, headers: { origin: baseURL! } });
  expect(around.ok(), await around.text()).toBe(true);
  const { events } = (await around.json()) as { events: { id: string; title: string; lat: number; lng: number }[] };
  expect(events.length, 'demo content has upcoming events around the centre').toBeGreaterThan(0);
  const target = events[0]!;
  await context.setGeolocation({ latitude: target.lat + 0.0005, longitude: target.lng });

  await page.goto('/ar-discovery');
  await expect(page.getByRole('heading', { level: 1, name: 'AR Event Discovery' })).toBeVisible();
  const achievements = page.getByTestId('ar-achievements');
  await expect(achievements).toContainText('AR Explorer');
  await expect(page.getByTestId('achievement-ar_explorer')).toHaveText('0/5');

  const recorded = page.waitForResponse((r) => r.url().endsWith('/api/ar/discover') && r.request().method() === 'POST');
  await page.getByRole('button', { name: 'Start AR' }).click();
  const video = page.getByTestId('ar-video');
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.srcObject instanceof MediaStream && (v.srcObject as MediaStream).getVideoTracks()[0]?.readyState)).toBe('live');
  // Headless Chromium has no compass, so the events are listed beside the camera, nearest first.
  const list = page.getByTestId('ar-event-list');
  await expect(list).toContainText(target.title);
  await expect(page.getByText('Sample events')).toHaveCount(0);

  const answer = (await (await recorded).json()) as { pointsAwarded: number; discovery: { eventIds: string[] } };
  expect(answer.discovery.eventIds).toContain(target.id);
  expect(answer.pointsAwarded).toBe(5);
  await expect(page.getByTestId('ar-recorded')).toContainText('+5 points for an AR interaction.');
  await expect(page.getByTestId('achievement-ar_explorer')).toHaveText('1/5');
  await expect(page.getByTestId('points-chip')).toHaveText('5');

  await page.getByRole('button', { name: 'Share discovery' }).click();
  await expect(page.getByTestId('achievement-digital_pioneer')).toHaveText('1/1');

  // Stop AR stops every track and detaches the stream.
  await video.evaluate((v: HTMLVideoElement) => {
    (window as unknown as { arTracks: MediaStreamTrack[] }).arTracks = (v.srcObject as MediaStream).getTracks();
  });
  await page.getByRole('button', { name: 'Stop AR' }).click();
  expect(await video.evaluate((v: HTMLVideoElement) => v.srcObject)).toBeNull();
  expect(await page.evaluate(() => (window as unknown as { arTracks: MediaStreamTrack[] }).arTracks.map((t) => t.readyState))).toEqual(expect.arrayContaining(['ended']));
  expect(await page.evaluate(() => (window as unknown as { arTracks: MediaStreamTrack[] }).arTracks.every((t) => t.readyState === 'ended'))).toBe(true);
  await expect(page.getByTestId('ar-event-list')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Start AR' })).toBeVisible();
  await context.close();
});

test('without a location the labelled sample events show, and nothing is recorded', async ({ browser, baseURL }) => {
  const { context, page } = await memberPage(browser, baseURL!, { permissions: ['camera'] });
  let discovered = 0;
  page.on('request', (r) => {
    if (r.url().endsWith('/api/ar/discover')) discovered += 1;
  });
  await page.goto('/ar-discovery');
  await page.getByRole('button', { name: 'Start AR' }).click();
  await expect(page.getByRole('heading', { name: 'Sample events' })).toBeVisible({ timeout: 10_000 });
  await expect(page.getByTestId('ar-event-list')).toContainText('Farmers Market');
  await expect(page.getByTestId('ar-event-list')).toContainText('Art Walk');
  await page.getByRole('button', { name: 'Stop AR' }).click();
  expect(discovered).toBe(0);
  await context.close();
});

test('a denied camera shows the spec alert', async ({ browser, baseURL }) => {
  const { context, page } = await memberPage(browser, baseURL!);
  // The fake-UI flag accepts every prompt, so the refusal is simulated the way a browser reports it.
  await page.addInitScript(() => {
    navigator.mediaDevices.getUserMedia = () => Promise.reject(new DOMException('Permission denied', 'NotAllowedError'));
  });
  await page.goto('/ar-discovery');
  const messages: string[] = [];
  page.on('dialog', (d) => {
    messages.push(d.message());
    void d.dismiss();
  });
  await page.getByRole('button', { name: 'Start AR' }).click();
  await expect.poll(() => messages).toEqual(['Camera access denied. Please allow camera permissions for AR features.']);
  await expect(page.getByRole('button', { name: 'Start AR' })).toBeVisible();
  await context.close();
});

test('?lat=&lng=&name= starts AR at that place', async ({ browser, baseURL }) => {
  const { context, page } = await memberPage(browser, baseURL!, { permissions: ['camera'] });
  await page.goto(`/ar-discovery?lat=${CENTRE.latitude}&lng=${CENTRE.longitude}&name=Pioneer%20Square`);
  await expect(page.getByText('near Pioneer Square')).toBeVisible();
  const nearby = page.waitForRequest((r) => r.url().endsWith('/api/ar/nearby-events'));
  await page.getByRole('button', { name: 'Start AR' }).click();
  expect((await nearby).postDataJSON()).toEqual({ lat: CENTRE.latitude, lng: CENTRE.longitude, radius: 1000 });
  await expect(page.getByText('Around Pioneer Square')).toBeVisible();
  await context.close();
});

test('each nearby row says when, opens its event, and a weekly series is one row', async ({ browser, baseURL }) => {
  const { context, page } = await memberPage(browser, baseURL!, { permissions: ['camera'] });
  await page.goto('/ar-discovery?lat=45.5187&lng=-122.6801&name=Downtown');
  await page.getByRole('button', { name: 'Start AR' }).click();
  const rows = page.getByTestId('ar-event');
  await expect(rows.first()).toBeVisible({ timeout: 15_000 });
  const titles = await rows.locator('a').allTextContents();
  expect(titles.length).toBeGreaterThan(0);
  expect(new Set(titles).size, 'a series is listed once').toBe(titles.length);
  for (const when of await rows.locator('time').allTextContents()) expect(when).toMatch(/^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), [A-Z][a-z]{2} \d{1,2}(, \d{4})? · (\d{1,2}:\d{2} [AP]M|All day)$/);
  const link = rows.first().getByRole('link');
  const href = await link.getAttribute('href');
  expect(href).toMatch(/^\/events\/[0-9a-f-]{36}$/);
  await link.click();
  await expect(page).toHaveURL(new RegExp(`${href}$`));
  await expect(page.getByRole('heading', { level: 1, name: titles[0]! })).toBeVisible();
  await context.close();
});
