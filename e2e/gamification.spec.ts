import AxeBuilder from '@axe-core/playwright';
import { createRequire } from 'node:module';
import { writeFileSync } from 'node:fs';
import { chromium, expect, request, test, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { DEMO_QR } from '../src/contract/gaming.ts';
import { fixedPoints, RULES } from '../src/server/features/gaming/rules.ts';
import { ADMIN, hasChromium, NO_CHROMIUM, newUser } from './fixtures.ts';
import { seedInputs } from './seed-events.ts';

// Skipped only on a machine without Debian's Chromium (a developer's): in CI hasChromium is true and
// playwright.config.ts fails the run when Chromium is missing, so these tests always run there.
test.skip(!hasChromium, NO_CHROMIUM); // Reason: Chromium is absent on this machine; CI installs it and fails the run without it.
// Each test signs a new member up and waits on live updates: generous on a busy machine.
test.describe.configure({ timeout: 90_000 });

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHECK_IN_POINTS = fixedPoints(RULES.check_in);
const DISCOVERY_POINTS = fixedPoints(RULES.discovered);
const SEED_TITLES = new Set(seedInputs().map((e) => e.title));

/** A fresh browser context with a brand-new member, signed up through the API (its cookie is the context's). */
async function memberPage(browser: Browser, baseURL: string, options: Parameters<Browser['newContext']>[0] = {}) {
  const context = await browser.newContext({ baseURL, ...options });
  const user = newUser();
  const res = await context.request.post('/api/auth/signup', { data: user, headers: { origin: baseURL } });
  expect(res.status(), await res.text()).toBe(201);
  const page = await context.newPage();
  return { context, page, user };
}

/** Distinct seeded events (id and title), so each favourite pays its discovery points. */
async function seededEvents(api: APIRequestContext, count: number): Promise<{ id: string; title: string }[]> {
  const res = await api.get('/api/events?limit=100&sortBy=date');
  expect(res.ok()).toBe(true);
  const list = (await res.json()) as { id: string; title: string }[];
  const byTitle = new Map<string, { id: string; title: string }>();
  for (const e of list) if (SEED_TITLES.has(e.title) && !byTitle.has(e.title)) byTitle.set(e.title, { id: e.id, title: e.title });
  const picked = [...byTitle.values()].slice(0, count);
  expect(picked.length, 'enough seeded events').toBe(count);
  return picked;
}

const allEvents = (page: Page) => page.getByRole('region', { name: /^All Events/ });

async function seriousViolations(page: Page, include?: string[]): Promise<string[]> {
  let axe = new AxeBuilder({ page });
  for (const selector of include ?? []) axe = axe.include(selector);
  const { violations } = await axe.analyze();
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')})`);
}

/** Opens Discover on one event and waits for the live channel to be up (so nothing is missed). */
async function discoverOne(page: Page, title: string) {
  const socket = page.waitForEvent('websocket', (ws) => ws.url().endsWith('/ws'));
  await page.goto(`/dashboard?search=${encodeURIComponent(title)}`);
  await socket;
  const heart = allEvents(page).getByRole('button', { name: `Add ${title} to favorites` });
  await expect(heart).toBeVisible();
  return heart;
}

test('the /qr-scanner demo: 2 s of scanning, 15 points on the chip without a reload, then already scanned', async ({ browser, baseURL }) => {
  const { context, page } = await memberPage(browser, baseURL!);
  await page.goto('/qr-scanner');
  await expect(page.getByRole('heading', { level: 1, name: 'QR Scanner' })).toBeVisible();
  await expect(page.getByText('Demo', { exact: true })).toBeVisible();
  await expect(page.getByTestId('points-chip')).toHaveText('0');

  const clickedAt = Date.now();
  await page.getByRole('button', { name: 'Try a demo code' }).click();
  await expect(page.getByTestId('qr-demo-scanning')).toContainText('Scanning…');
  await expect(page.getByRole('heading', { name: 'Scan Successful!' })).toBeVisible();
  expect(Date.now() - clickedAt).toBeGreaterThanOrEqual(DEMO_QR.scanMs - 100);
  await expect(page.getByTestId('qr-result')).toContainText(DEMO_QR.name);
  await expect(page.getByTestId('qr-points')).toHaveText(`+${DEMO_QR.points}`);
  await expect(page.getByTestId('points-chip')).toHaveText(String(DEMO_QR.points));

  await page.getByRole('button', { name: 'Scan Another' }).click();
  await page.getByRole('button', { name: 'Try a demo code' }).click();
  await expect(page.getByTestId('qr-error')).toHaveText(/already scanned/);
  await expect(page.getByTestId('points-chip')).toHaveText(String(DEMO_QR.points));
  await context.close();
});

test('a denied camera says so', async ({ browser, baseURL }) => {
  const { context, page } = await memberPage(browser, baseURL!, { permissions: [] });
  // Chromium without a camera device: make getUserMedia fail the way a refused prompt does.
  await page.addInitScript(() => {
    const deny = () => Promise.reject(new DOMException('Permission denied', 'NotAllowedError'));
    if (navigator.mediaDevices) Object.defineProperty(navigator.mediaDevices, 'getUserMedia', { value: deny, configurable: true });
  });
  await page.goto('/qr-scanner');
  await page.getByRole('button', { name: 'Start Scanning' }).click();
  await expect(page.getByTestId('qr-error')).toHaveText('Camera access denied. Please allow camera permissions.');
  await expect(page.getByRole('button', { name: 'Start Scanning' })).toBeEnabled();
  await context.close();
});

test('favourites update the points chip live, without a reload; Community Buzz is the community\'s, not my own', async ({ browser, baseURL }) => {
  const { context, page } = await memberPage(browser, baseURL!);
  const [first, second] = await seededEvents(context.request, 2);
  const heart = await discoverOne(page, first!.title);
  const buzz = page.getByRole('region', { name: 'Community Buzz' });
  await expect(buzz).toBeVisible();

  await heart.click();
  await expect(page.getByTestId('points-chip')).toHaveText(String(DISCOVERY_POINTS));

  // Another tab (here: the API) favourites a second event: only the live channel can tell this page.
  const res = await context.request.post(`/api/user/favorites/${second!.id}`, { headers: { origin: baseURL! } });
  expect(res.ok()).toBe(true);
  await expect(page.getByTestId('points-chip')).toHaveText(String(2 * DISCOVERY_POINTS));
  // My own activity (with its points) is in my profile, not in Community Buzz (e2e/recommendations.spec.ts covers other people's).
  await expect(buzz).not.toContainText('Discovered');
  await context.close();
});

test("crossing 50 points shows 'New Badge Unlocked' and an achievement notification", async ({ browser, baseURL }) => {
  const { context, page } = await memberPage(browser, baseURL!);
  const events = await seededEvents(context.request, 10);
  // 9 favourites through the API: 45 points, just under the Explorer badge at 50.
  for (const e of events.slice(0, 9)) {
    const res = await context.request.post(`/api/user/favorites/${e.id}`, { headers: { origin: baseURL! } });
    expect(res.ok(), await res.text()).toBe(true);
  }
  const last = events[9]!;
  const heart = await discoverOne(page, last.title);
  await expect(page.getByTestId('points-chip')).toHaveText('45');
  await expect(page.getByTestId('new-badge-banner')).toHaveCount(0);

  await heart.click();
  await expect(page.getByTestId('points-chip')).toHaveText('50');
  const banner = page.getByTestId('new-badge-banner');
  await expect(banner).toContainText('New Badge Unlocked');
  const card = page.getByTestId('live-notification').filter({ hasText: 'New Badge Unlocked' }).first();
  await expect(card).toBeVisible();
  await expect(card).toHaveAttribute('data-type', 'achievement');
  // The bell counts the persisted notifications.
  await expect(page.getByRole('button', { name: /^Notifications, \d+ unread$/ })).toBeVisible();
  // The gaming parts of Discover (banners and the left column) pass axe; the rest has its own test.
  expect(await seriousViolations(page, ['[data-testid="new-badge-banner"]', '[aria-label="Your points"]', '[aria-label="Filters and status"]'])).toEqual([]);

  // Dismissed (one banner per new badge: 50 points and 10 discoveries earn two), it stays away after a reload.
  for (let i = 0; i < 3 && (await banner.count()) > 0; i++) await banner.getByRole('button', { name: /^Dismiss the .* badge banner$/ }).click();
  await expect(banner).toHaveCount(0);
  await page.reload();
  // A cold reload fetches the page's chunks again: slow on a busy machine.
  await expect(page.getByRole('heading', { level: 1, name: 'Discover Events' })).toBeVisible({ timeout: 20_000 });
  await expect(page.getByTestId('points-chip')).toHaveText('50');
  await expect(page.getByTestId('new-badge-banner')).toHaveCount(0);
  await context.close();
});

test('the leaderboard, the bell and the profile: reachable, accurate and accessible', async ({ browser, baseURL }) => {
  const { context, page, user } = await memberPage(browser, baseURL!);
  const [event] = await seededEvents(context.request, 1);
  expect((await context.request.post(`/api/user/favorites/${event!.id}`, { headers: { origin: baseURL! } })).ok()).toBe(true);

  await page.goto('/dashboard');
  await page.getByRole('link', { name: 'See full leaderboard' }).click();
  await expect(page).toHaveURL(/\/leaderboard$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Leaderboard' })).toBeVisible();
  const me = page.getByTestId('leaderboard-me');
  await expect(me).toContainText(`${user.firstName} ${user.lastName[0]}.`);
  await expect(me).toContainText(String(DISCOVERY_POINTS));
  expect(await seriousViolations(page)).toEqual([]);

  // Hidden from the board: others (and this page) read 'Anonymous'.
  const hide = page.getByRole('switch', { name: 'Hide me from the leaderboard' });
  await expect(hide).toBeEnabled();
  await hide.click();
  await expect(hide).toHaveAttribute('aria-checked', 'true');
  await expect(me).toContainText('Anonymous');
  await page.getByRole('tab', { name: 'This week' }).click();
  await expect(page.getByRole('tab', { name: 'This week' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('leaderboard-me')).toBeVisible();

  // The bell has nothing yet for a favourite alone.
  await page.getByRole('button', { name: 'Notifications' }).click();
  await expect(page.getByRole('menu')).toContainText('No notifications yet');
  await page.keyboard.press('Escape');

  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'My Profile' }).click();
  const dialog = page.getByRole('dialog', { name: 'Your Community Profile' });
  await expect(dialog.getByTestId('profile-points')).toHaveText(String(DISCOVERY_POINTS));
  await expect(dialog.getByText('No badges earned yet')).toBeVisible();
  await expect(dialog.getByTestId('profile-activity')).toContainText(`Discovered ${event!.title}`);
  expect(await seriousViolations(page)).toEqual([]);
  await page.keyboard.press('Escape');

  await page.goto('/qr-scanner');
  await expect(page.getByRole('button', { name: 'Start Scanning' })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await context.close();
});

// ---------------------------------------------------------------------------------------------
// A printed code, seen by a (fake) camera.
// ---------------------------------------------------------------------------------------------

interface Gray {
  width: number;
  height: number;
  /** One byte of luminance per pixel. */
  data: Uint8Array;
}

/** Decodes a PNG with pngjs (qrcode's own dependency) or sharp, whichever is installed; null if neither. */
async function decodePng(png: Buffer): Promise<Gray | null> {
  const require = createRequire(import.meta.url);
  const load = (name: string): unknown => {
    try {
      return require(name);
    } catch {
      return null;
    }
  };
  const toGray = (width: number, height: number, rgba: Uint8Array, channels: number): Gray => {
    const data = new Uint8Array(width * height);
    for (let i = 0; i < width * height; i++) {
      const [r, g, b] = [rgba[i * channels]!, rgba[i * channels + 1]!, rgba[i * channels + 2]!];
      const a = channels === 4 ? rgba[i * channels + 3]! / 255 : 1;
      data[i] = Math.round((0.299 * r + 0.587 * g + 0.114 * b) * a + 255 * (1 - a));
    }
    return { width, height, data };
  };
  const pngjs = load('pngjs') as { PNG: { sync: { read(b: Buffer): { width: number; height: number; data: Buffer } } } } | null;
  if (pngjs) {
    const img = pngjs.PNG.sync.read(png);
    return toGray(img.width, img.height, img.data, 4);
  }
  type SharpFn = (b: Buffer) => { raw(): { toBuffer(o: { resolveWithObject: true }): Promise<{ data: Buffer; info: { width: number; height: number; channels: number } }> } };
  const sharp = load('sharp') as SharpFn | null;
  if (sharp) {
    const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
    return toGray(info.width, info.height, data, info.channels);
  }
  return null;
}

/**
 * A Y4M video (raw YUV 4:2:0) of the code on a white 640x480 frame: what Chromium's
 * --use-file-for-fake-video-capture plays in a loop as the camera.
 */
function toY4m(code: Gray, frames = 5): Buffer {
  const W = 640;
  const H = 480;
  const size = 400;
  const y = new Uint8Array(W * H).fill(255);
  const x0 = (W - size) / 2;
  const y0 = (H - size) / 2;
  for (let row = 0; row < size; row++) {
    const sy = Math.floor((row * code.height) / size);
    for (let col = 0; col < size; col++) {
      const sx = Math.floor((col * code.width) / size);
      y[(y0 + row) * W + x0 + col] = code.data[sy * code.width + sx]!;
    }
  }
  const chroma = new Uint8Array((W / 2) * (H / 2)).fill(128);
  const frame = Buffer.concat([Buffer.from('FRAME\n'), y, chroma, chroma]);
  return Buffer.concat([Buffer.from(`YUV4MPEG2 W${W} H${H} F10:1 Ip A1:1 C420jpeg\n`), ...Array.from({ length: frames }, () => frame)]);
}

test('scans a real printed event code from the camera and checks in', async ({ baseURL }, testInfo) => {
  test.setTimeout(120_000);
  const admin = await request.newContext({ baseURL });
  const login = await admin.post('/api/auth/login', { data: { email: ADMIN.email, password: ADMIN.password }, headers: { origin: baseURL! } });
  expect(login.ok(), await login.text()).toBe(true);
  const now = Date.now();
  const title = `QR Check-in Night ${now.toString(36)}`;
  const created = await admin.post('/api/admin/events', {
    headers: { origin: baseURL! },
    data: {
      title,
      category: 'Music',
      startDate: new Date(now - 10 * 60_000).toISOString(),
      endDate: new Date(now + 2 * 3600_000).toISOString(),
      venue: 'Pioneer Courthouse Square',
      neighbourhood: 'Downtown',
      status: 'approved',
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  const png = await admin.get(`/api/admin/qr/event/${id}?format=png`);
  expect(png.ok()).toBe(true);
  expect(png.headers()['content-type']).toContain('image/png');
  const code = await decodePng(await png.body());
  await admin.dispose();
  test.skip(code === null, 'Neither pngjs nor sharp is installed, so the printed PNG cannot be turned into a fake camera video');

  const video = testInfo.outputPath('printed-code.y4m');
  writeFileSync(video, toY4m(code!));
  const camera = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--use-fake-device-for-media-stream',
      '--use-fake-ui-for-media-stream',
      `--use-file-for-fake-video-capture=${video}`,
    ],
  });
  try {
    const { page } = await memberPage(camera, baseURL!, { permissions: ['camera'] });
    // Discover's 'Scan QR' opens the scanner in a modal.
    await page.goto('/dashboard');
    await expect(page.getByTestId('points-chip')).toHaveText('0');
    await page.getByRole('button', { name: 'Scan QR' }).click();
    const modal = page.getByRole('dialog', { name: 'Scan QR Code' });
    await modal.getByRole('button', { name: 'Start Scanning' }).click();
    await expect(modal.getByRole('heading', { name: 'Scan Successful!' })).toBeVisible({ timeout: 20_000 });
    await expect(modal.getByTestId('qr-result')).toContainText(title);
    await expect(modal.getByTestId('qr-points')).toHaveText(`+${CHECK_IN_POINTS}`);
    await expect(page.getByTestId('points-chip')).toHaveText(String(CHECK_IN_POINTS));
    // The camera is off once the code is read.
    await expect(modal.getByRole('button', { name: 'Stop Scanning' })).toHaveCount(0);
    await expect(modal.getByRole('button', { name: 'Scan Another' })).toBeVisible();
    await modal.getByRole('button', { name: 'Close', exact: true }).first().click();
    await expect(modal).toHaveCount(0);
  } finally {
    await camera.close();
  }
});
