import { existsSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';

test.skip(!existsSync('/usr/bin/chromium') && !process.env.CI, 'Chromium is not installed at /usr/bin/chromium (apt-get install chromium)');

const FEATURES = [
  'AI-Powered Discovery',
  'Hyperlocal Coverage',
  'Community Gamification',
  'Real-Time Updates',
  'Personalized Recommendations',
  'Multiple Data Sources',
];
const DEMO_TYPES = ['ai-classification', 'location-mapping', 'rewards-system', 'ar-preview'];

async function openLanding(page: Page) {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: 'Never Miss Another Perfect Event' })).toBeVisible();
}

const demosSection = (page: Page) => page.locator('#demos');
const demoButtons = (page: Page) => demosSection(page).getByRole('button', { name: /^(See|Hide) Demo$/ });
const openPanels = (page: Page) => page.locator('[data-demo-panel]:not([hidden])');

test('signed out, the landing page shows the headline and six features', async ({ page }) => {
  await openLanding(page);
  await expect(page.getByRole('heading', { level: 1 })).toHaveCount(1);
  await expect(page.getByRole('banner').getByRole('link', { name: 'Get Started', exact: true })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Discover Events Now' })).toBeVisible();
  await expect(page.getByRole('link', { name: /Go to Dashboard/ })).toHaveCount(0);

  const cards = page.locator('[data-feature-id]');
  await expect(cards).toHaveCount(6);
  await expect(cards.getByRole('heading', { level: 3 })).toHaveText(FEATURES);
  for (const type of await cards.evaluateAll((els) => els.map((e) => e.getAttribute('data-demo-type')))) {
    expect(DEMO_TYPES).toContain(type);
  }

  for (const figure of ['20+', '90%+', '15min', '95%+']) {
    await expect(page.getByText(figure, { exact: true })).toBeVisible();
  }
  await expect(page.getByText(/94\.2% accuracy.*847 events per minute/)).toBeVisible();
  await expect(page.getByRole('link', { name: 'Get Started for Free' })).toBeVisible();
  await expect(page.getByRole('contentinfo')).toContainText('© 2026 Townbeat');
});

test("'See How It Works' scrolls the demos section into view", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 780 });
  await openLanding(page);
  await expect(demosSection(page)).not.toBeInViewport();
  expect(await page.evaluate(() => window.scrollY)).toBe(0);

  await page.getByRole('button', { name: 'See How It Works' }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'See It in Action' })).toBeInViewport();
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
  // No client-side navigation happened.
  expect(new URL(page.url()).pathname).toBe('/');
});

test('at 390 px each example event of the hero card stays inside its card', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 780 });
  await openLanding(page);
  const figure = page.locator('figure').filter({ hasText: 'Happening near you' });
  const card = (await figure.boundingBox())!;
  const rows = figure.getByRole('listitem');
  await expect(rows).toHaveCount(3);
  for (const row of await rows.all()) {
    const box = (await row.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(card.x + card.width - 16);
    await expect(row.locator('p').first()).toBeVisible();
  }
});

test('demo cards open one panel at a time and close on a second click', async ({ page }) => {
  await openLanding(page);
  const buttons = demoButtons(page);
  await expect(buttons).toHaveCount(4);
  await expect(buttons).toHaveText(['See Demo', 'See Demo', 'See Demo', 'See Demo']);
  await expect(openPanels(page)).toHaveCount(0);

  const [ai, coverage, rewards] = [buttons.nth(0), buttons.nth(1), buttons.nth(2)];

  await ai.click();
  await expect(ai).toHaveText('Hide Demo');
  await expect(ai).toHaveAttribute('aria-expanded', 'true');
  await expect(openPanels(page)).toHaveCount(1);
  const aiPanel = page.locator(`#${await ai.getAttribute('aria-controls')}`);
  await expect(aiPanel).toBeVisible();
  await expect(aiPanel).toContainText('Jazz Night at the Waterfront');
  await expect(aiPanel).toContainText('Music');
  await expect(aiPanel.getByText('Demo', { exact: true })).toBeVisible();

  // Opening another closes the first.
  await coverage.click();
  await expect(coverage).toHaveText('Hide Demo');
  await expect(ai).toHaveText('See Demo');
  await expect(ai).toHaveAttribute('aria-expanded', 'false');
  await expect(aiPanel).toBeHidden();
  await expect(openPanels(page)).toHaveCount(1);
  const coveragePanel = page.locator(`#${await coverage.getAttribute('aria-controls')}`);
  await expect(coveragePanel.getByRole('progressbar')).toHaveCount(4);
  await expect(coveragePanel).toContainText('2-mile radius');
  await expect(coveragePanel).toContainText('90.3%');

  await rewards.click();
  const rewardsPanel = page.locator(`#${await rewards.getAttribute('aria-controls')}`);
  await expect(rewardsPanel).toContainText('847');
  await expect(rewardsPanel).toContainText('Rank #23');
  for (const pts of ['+50', '+25', '+15']) await expect(rewardsPanel.getByText(pts, { exact: true })).toBeVisible();
  await expect(openPanels(page)).toHaveCount(1);

  // A second click on the open card closes it.
  await rewards.click();
  await expect(rewards).toHaveText('See Demo');
  await expect(rewards).toHaveAttribute('aria-expanded', 'false');
  await expect(openPanels(page)).toHaveCount(0);
});

test('the AR demo loops a muted clip that the server really serves', async ({ page }) => {
  await openLanding(page);
  const ar = demoButtons(page).nth(3);
  await ar.click();
  const panel = page.locator(`#${await ar.getAttribute('aria-controls')}`);
  await expect(panel.getByText('AR LIVE')).toBeVisible();
  await expect(panel.getByText('Pearl District, Portland')).toBeVisible();

  const video = panel.locator('video');
  await expect(video).toHaveCount(1);
  await expect(video).toHaveAttribute('loop', '');
  await expect(video).toHaveAttribute('aria-label', /.+/);
  const props = await video.evaluate((v: HTMLVideoElement) => ({ loop: v.loop, muted: v.muted, autoplay: v.autoplay }));
  expect(props).toEqual({ loop: true, muted: true, autoplay: true });

  const sources = await video.locator('source').evaluateAll((els) => els.map((e) => e.getAttribute('src')));
  expect(sources).toEqual(['/assets/ar-demo.webm', '/assets/ar-demo.mp4']);
  for (const src of sources) {
    const res = await page.request.get(src!);
    expect(res.status(), src!).toBe(200);
    expect(res.headers()['content-type'], src!).toMatch(/^video\//);
    expect((await res.body()).byteLength, src!).toBeGreaterThan(10_000);
  }

  // The browser picked one of them, decoded it and is playing it.
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.currentSrc)).toMatch(/\/assets\/ar-demo\.(webm|mp4)$/);
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState)).toBeGreaterThanOrEqual(2);
});

test("'Get Started' and 'Discover Events Now' take a new visitor to sign up", async ({ page }) => {
  await openLanding(page);
  await page.getByRole('banner').getByRole('link', { name: 'Get Started', exact: true }).click();
  await expect(page).toHaveURL((url) => url.pathname === '/signup');
  await expect(page.getByRole('heading', { level: 1, name: 'Create your account' })).toBeVisible();
  await openLanding(page);
  await page.getByRole('link', { name: 'Discover Events Now' }).click();
  await expect(page).toHaveURL((url) => url.pathname === '/signup');
});

test('the landing page has no serious or critical accessibility violations', async ({ browser }) => {
  // Reduced motion (styles.css then ends transitions at once) so axe never sees a colour mid-fade.
  const context = await browser.newContext({ reducedMotion: 'reduce' });
  const page = await context.newPage();
  try {
    await openLanding(page);
    const serious = async (label: string) => {
      const results = await new AxeBuilder({ page }).analyze();
      const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      expect(
        bad.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => n.target.join(' ')) })),
        label,
      ).toEqual([]);
    };
    await serious('landing, all demos closed');

    const buttons = demoButtons(page);
    for (let i = 0; i < 4; i++) {
      // Keyboard, not the mouse, so no hover styles are in play while axe measures contrast.
      await buttons.nth(i).focus();
      await page.keyboard.press('Enter');
      await expect(buttons.nth(i)).toHaveAttribute('aria-expanded', 'true');
      await serious(`landing, demo ${i + 1} open`);
    }
  } finally {
    await context.close();
  }
});
