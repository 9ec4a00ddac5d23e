import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { ADMIN, hasChromium, NO_CHROMIUM, newUser } from './fixtures.ts';
import { SEED } from './seed-events.ts';

// Skipped only on a machine without Debian's Chromium (a developer's): in CI hasChromium is true and
// playwright.config.ts fails the run when Chromium is missing, so these tests always run there.
test.skip(!hasChromium, NO_CHROMIUM); // Reason: Chromium is absent on this machine; CI installs it and fails the run without it.

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };
const SIZES = [PHONE, DESKTOP];
const NAV_HREFS = ['/', '/map', '/vendors', '/shop', '/stories', '/memory-forge', '/qr-scanner', '/ar-discovery', '/admin'];

/** Signs the page's context in through the API (faster than the form, which auth.spec covers). */
async function signIn(page: Page, baseURL: string, user: { email: string; password: string } = ADMIN) {
  const res = await page.request.post('/api/auth/login', { data: { email: user.email, password: user.password }, headers: { origin: baseURL } });
  expect(res.status(), await res.text()).toBe(200);
}

async function eventId(page: Page, title: string): Promise<string> {
  const res = await page.request.get(`/api/events?search=${encodeURIComponent(title)}`);
  const [event] = (await res.json()) as { id: string }[];
  expect(event, title).toBeTruthy();
  return event!.id;
}

const modeControl = (page: Page) => page.getByRole('banner').getByRole('button', { name: /^Interface Mode/ });

/**
 * Every visible match of `selector` that something else covers: each is scrolled to the middle of
 * the viewport (or its scrolling box), then `document.elementFromPoint` at its centre and at four
 * points near its corners must land on it or inside it. Returns a line per covered element.
 */
async function coveredElements(page: Page, selector: string): Promise<string[]> {
  return page.evaluate((sel) => {
    const name = (el: Element | null) => {
      if (!el) return 'nothing';
      const text = (el.getAttribute('aria-label') ?? el.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 40);
      return `<${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}> "${text}"`;
    };
    const problems: string[] = [];
    const targets = [...document.querySelectorAll<HTMLElement>(sel)];
    for (const el of targets) {
      if (!el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) continue;
      el.scrollIntoView({ block: 'center', inline: 'nearest', behavior: 'instant' });
      let r = el.getBoundingClientRect();
      if (/^H[1-6]$/.test(el.tagName)) {
        // A heading: where its text is (a dialog's title keeps clear of the close button by padding).
        const range = document.createRange();
        range.selectNodeContents(el);
        const t = range.getBoundingClientRect();
        const left = Math.max(r.left, t.left);
        const top = Math.max(r.top, t.top);
        r = new DOMRect(left, top, Math.min(r.right, t.right) - left, Math.min(r.bottom, t.bottom) - top);
      }
      // Screen-reader-only text (1 px) is not something to cover.
      if (r.width < 4 || r.height < 4) continue;
      // Inset enough that a round button's corner points are still on the button.
      const inset = Math.min(r.width, r.height) * 0.3;
      const points: [number, number][] = [
        [r.left + r.width / 2, r.top + r.height / 2],
        [r.left + inset, r.top + inset],
        [r.right - inset, r.top + inset],
        [r.left + inset, r.bottom - inset],
        [r.right - inset, r.bottom - inset],
      ];
      for (const [x, y] of points) {
        if (x < 0 || y < 0 || x >= window.innerWidth || y >= window.innerHeight) {
          problems.push(`${name(el)} is outside the viewport at (${Math.round(x)}, ${Math.round(y)})`);
          break;
        }
        const hit = document.elementFromPoint(x, y);
        if (!hit || !el.contains(hit)) {
          problems.push(`${name(el)} is covered at (${Math.round(x)}, ${Math.round(y)}) by ${name(hit)}`);
          break;
        }
      }
    }
    window.scrollTo({ top: 0, behavior: 'instant' });
    return problems;
  }, selector);
}

/** Filter controls, card titles, the page title and every button of the page area. */
const PAGE_TARGETS = ['main h1', 'main [data-testid="event-card"] h3', 'main button', 'main input', 'main select', 'main textarea'].join(', ');
/** The same inside an open dialog. */
const DIALOG_TARGETS = ['[role="dialog"] h2', '[role="dialog"] button', '[role="dialog"] input', '[role="dialog"] select'].join(', ');

for (const size of SIZES) {
  test(`at ${size.width} px the Interface Mode control covers nothing on Discover, an event page, the QR scanner or an open dialog`, async ({ page, baseURL }, testInfo) => {
    await page.setViewportSize(size);
    await signIn(page, baseURL!);

    // Discover, with the filters and the cards loaded.
    await page.goto('/dashboard?radius=1');
    await expect(modeControl(page)).toBeVisible();
    await expect(page.getByRole('heading', { level: 1, name: 'Discover Events' })).toBeVisible();
    await expect(page.getByRole('heading', { level: 2, name: /^All Events \(\d+\)$/ })).toBeVisible();
    await expect(page.getByText('A recurring series counts once')).toBeVisible();
    // The page area starts below the header: the control sits in the header's own row.
    const header = (await page.getByRole('banner').boundingBox())!;
    const control = (await modeControl(page).boundingBox())!;
    expect(control.y + control.height).toBeLessThanOrEqual(header.y + header.height);
    expect((await page.locator('main').boundingBox())!.y).toBeGreaterThanOrEqual(header.y + header.height - 1);

    if (size === PHONE) {
      // The filter panel is a sheet below lg: check it open, as a dialog.
      await page.getByRole('button', { name: 'Filters' }).click();
      const sheet = page.getByRole('dialog', { name: 'Filters' });
      await expect(sheet.getByRole('group', { name: 'Source types' }).getByRole('checkbox').first()).toBeVisible();
      // Singular at 1 (the URL asked for radius 1).
      await expect(sheet.locator('output')).toHaveText('1 mile');
      expect(await coveredElements(page, DIALOG_TARGETS)).toEqual([]);
      await page.keyboard.press('Escape');
      await expect(sheet).toHaveCount(0);
    } else {
      const panel = page.getByRole('complementary', { name: 'Filters and status' });
      await expect(panel.getByRole('group', { name: 'Source types' }).getByRole('checkbox').first()).toBeVisible();
      await expect(panel.locator('output').first()).toHaveText('1 mile');
    }
    await page.goto('/dashboard');
    await expect(page.getByTestId('event-results').getByTestId('event-card').first()).toBeVisible();
    expect(await coveredElements(page, PAGE_TARGETS)).toEqual([]);
    await page.screenshot({ path: testInfo.outputPath(`discover-${size.width}.png`) });

    // An event page: its title from the first letter.
    await page.goto(`/events/${await eventId(page, SEED.zebra)}`);
    await expect(page.getByRole('heading', { level: 1, name: SEED.zebra })).toBeVisible();
    expect(await coveredElements(page, PAGE_TARGETS)).toEqual([]);

    // The QR scanner: 'Try a demo code' and the rest.
    await page.goto('/qr-scanner');
    await expect(page.getByRole('button', { name: 'Try a demo code' })).toBeVisible();
    expect(await coveredElements(page, PAGE_TARGETS)).toEqual([]);

    // A dialog open: its controls are uncovered, and the control is under the backdrop.
    await page.getByRole('button', { name: /^Account menu/ }).click();
    await page.getByRole('menuitem', { name: 'My Events' }).click();
    const dialog = page.getByRole('dialog', { name: 'Admin Dashboard' });
    await expect(dialog.getByRole('heading', { name: 'Recent Events Requiring Review' })).toBeVisible();
    expect(await coveredElements(page, DIALOG_TARGETS)).toEqual([]);
    // (The dialog hides the rest of the page from the accessibility tree: find the control by CSS.)
    const box = (await page.locator('header button[aria-label^="Interface Mode"]').boundingBox())!;
    const onTop = await page.evaluate(([x, y]) => document.elementFromPoint(x!, y!)?.closest('header') !== null, [box.x + box.width / 2, box.y + box.height / 2]);
    expect(onTop, 'the Interface Mode control shows above an open dialog').toBe(false);

    // Opened, the control's panel keeps the spec's contents.
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
    await modeControl(page).click();
    const modePanel = page.getByRole('dialog', { name: 'Interface Mode' });
    await expect(modePanel.getByRole('switch', { name: 'Admin mode' })).toBeChecked();
    await expect(modePanel.getByText('Admin Interface')).toBeVisible();
    await expect(modePanel.getByText('Toggle to test both experiences')).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath(`interface-mode-open-${size.width}.png`) });
    const panelBox = (await modePanel.boundingBox())!;
    expect(panelBox.x).toBeGreaterThanOrEqual(0);
    expect(panelBox.x + panelBox.width).toBeLessThanOrEqual(size.width);
  });
}

test('at 390 px the search is usable, every navigation item can be reached, and the review table stacks', async ({ page, baseURL }, testInfo) => {
  await page.setViewportSize(PHONE);
  await signIn(page, baseURL!);
  // A pending event for the review table.
  const title = `Porch Concert ${Date.now().toString(36)}`;
  const created = await page.request.post('/api/admin/events', {
    headers: { origin: baseURL! },
    data: { title, category: 'Music', sourceType: 'facebook', startDate: new Date(Date.now() + 6 * 86_400_000).toISOString(), venue: 'A front porch', status: 'pending' },
  });
  expect(created.status(), await created.text()).toBe(201);
  const pendingId = ((await created.json()) as { id: string }).id;

  await page.goto('/dashboard');
  const search = page.getByRole('searchbox', { name: 'Search events' });
  await expect(search).toHaveAttribute('placeholder', 'Search events, venues, or categories...');
  const searchBox = (await search.boundingBox())!;
  expect(searchBox.width).toBeGreaterThanOrEqual(200);
  expect(searchBox.x + searchBox.width).toBeLessThanOrEqual(PHONE.width);
  // The whole placeholder fits.
  expect(await search.evaluate((el: HTMLInputElement) => {
    const style = getComputedStyle(el);
    const ctx = document.createElement('canvas').getContext('2d')!;
    ctx.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    return ctx.measureText(el.placeholder).width <= el.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  })).toBe(true);

  // The navigation scrolls sideways and shows that there is more.
  const nav = page.getByRole('navigation', { name: 'Main' });
  expect(await nav.getByRole('link').evaluateAll((els) => els.map((e) => e.getAttribute('href')))).toEqual(NAV_HREFS);
  await expect(page.getByRole('button', { name: 'Scroll navigation forward' })).toBeVisible();
  for (const href of NAV_HREFS) {
    const link = nav.locator(`a[href="${href}"]`);
    await link.scrollIntoViewIfNeeded();
    const shown = await link.evaluate((a) => {
      const r = a.getBoundingClientRect();
      const y = r.top + r.height / 2;
      const hits = [r.left + 2, r.left + r.width / 2, r.right - 2].every((x) => a.contains(document.elementFromPoint(x, y)));
      return { textFits: a.scrollWidth <= a.clientWidth, inViewport: r.left >= 0 && r.right <= window.innerWidth, uncovered: hits };
    });
    expect(shown, href).toEqual({ textFits: true, inViewport: true, uncovered: true });
    await link.click();
    await expect(page).toHaveURL((url) => url.pathname === href);
    await expect(link).toHaveAttribute('aria-current', 'page');
  }

  // The review table: one stacked card per event, Status and every action on screen.
  await page.getByRole('button', { name: /^Account menu/ }).click();
  await page.getByRole('menuitem', { name: 'My Events' }).click();
  const dialog = page.getByRole('dialog', { name: 'Admin Dashboard' });
  const row = dialog.getByRole('row').filter({ hasText: title });
  await row.scrollIntoViewIfNeeded();
  for (const part of [row.getByText('Pending Review'), row.getByRole('button', { name: 'Approve' }), row.getByRole('button', { name: 'Reject' }), row.getByRole('button', { name: 'Edit' })]) {
    await expect(part).toBeInViewport({ ratio: 1 });
    const b = (await part.boundingBox())!;
    expect(b.x).toBeGreaterThanOrEqual(0);
    expect(b.x + b.width).toBeLessThanOrEqual(PHONE.width);
  }
  expect(await dialog.evaluate((d) => d.scrollWidth <= d.clientWidth)).toBe(true);
  await page.screenshot({ path: testInfo.outputPath('review-table-390.png') });
  // The columns stay named for screen readers.
  await expect(dialog.getByRole('columnheader', { name: 'Status' })).toHaveCount(1);
  await expect(dialog.getByRole('columnheader', { name: 'Actions' })).toHaveCount(1);
  await page.request.post(`/api/admin/events/${pendingId}/reject`, { headers: { origin: baseURL! } });
});

test('at 1280 px the header uses its width: a wide search and the whole navigation in view', async ({ page, baseURL }) => {
  await page.setViewportSize(DESKTOP);
  await signIn(page, baseURL!);
  await page.goto('/dashboard');
  const search = (await page.getByRole('searchbox', { name: 'Search events' }).boundingBox())!;
  expect(search.width).toBeGreaterThanOrEqual(480);
  const nav = page.getByRole('navigation', { name: 'Main' });
  for (const href of NAV_HREFS) await expect(nav.locator(`a[href="${href}"]`)).toBeInViewport({ ratio: 1 });
  await expect(page.getByRole('button', { name: 'Scroll navigation forward' })).toHaveCount(0);
});

test('double-clicking the logo on another page opens the admin overlay', async ({ page, baseURL }) => {
  await page.setViewportSize(PHONE);
  await signIn(page, baseURL!);
  await page.goto('/leaderboard');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.getByRole('banner').getByRole('link', { name: 'Townbeat' }).dblclick();
  await expect(page.getByRole('dialog', { name: 'Admin Dashboard' })).toBeVisible();
  await expect(page).toHaveURL((url) => url.pathname === '/');
});

test("on a phone, a member's event page keeps its title whole above the actions", async ({ browser, baseURL }) => {
  const context = await browser.newContext({ baseURL, viewport: PHONE });
  const page = await context.newPage();
  const res = await page.request.post('/api/auth/signup', { data: newUser(), headers: { origin: baseURL! } });
  expect(res.status(), await res.text()).toBe(201);
  await page.goto(`/events/${await eventId(page, SEED.zebra)}`);
  const title = page.getByRole('heading', { level: 1, name: SEED.zebra });
  await expect(title).toBeVisible();
  // A member has three actions, which fit beside a title squeezed to a sliver: one word a line,
  // with the heart over the first.
  const titleBox = (await title.boundingBox())!;
  const heartBox = (await page.getByRole('button', { name: `Add ${SEED.zebra} to favorites` }).boundingBox())!;
  expect(heartBox.y, `title ${JSON.stringify(titleBox)}, heart ${JSON.stringify(heartBox)}`).toBeGreaterThanOrEqual(titleBox.y + titleBox.height);
  expect(titleBox.width).toBeGreaterThanOrEqual(PHONE.width - 40);
  expect(await title.evaluate((h) => h.scrollWidth <= h.clientWidth + 1)).toBe(true);
  expect(await coveredElements(page, PAGE_TARGETS)).toEqual([]);
  await context.close();
});

test('a member sees no Admin item and no Interface Mode control, and the logo opens no admin overlay', async ({ browser, baseURL }) => {
  const context = await browser.newContext({ baseURL, viewport: PHONE });
  const page = await context.newPage();
  const user = newUser();
  const res = await page.request.post('/api/auth/signup', { data: user, headers: { origin: baseURL! } });
  expect(res.status(), await res.text()).toBe(201);
  await page.goto('/leaderboard');
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: 'Discover', exact: true })).toBeVisible();
  expect(await nav.getByRole('link').evaluateAll((els) => els.map((e) => e.getAttribute('href')))).toEqual(NAV_HREFS.filter((h) => h !== '/admin'));
  await expect(modeControl(page)).toHaveCount(0);
  await page.getByRole('banner').getByRole('link', { name: 'Townbeat' }).dblclick();
  await expect(page.getByRole('heading', { level: 1, name: 'Discover Events' })).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await context.close();
});

test("signed out, 'Get Started' leads to sign-up, which links to sign-in", async ({ page }) => {
  await page.goto('/');
  await page.getByRole('banner').getByRole('link', { name: 'Get Started', exact: true }).click();
  await expect(page).toHaveURL((url) => url.pathname === '/signup');
  await expect(page.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/login');
});

/** Axe on one page: the serious and critical violations, one line each with where. */
async function seriousViolations(page: Page): Promise<string[]> {
  // Only violations in detail: much faster on long pages than the default report.
  const results = await new AxeBuilder({ page }).options({ resultTypes: ['violations'] }).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join('; ')})`);
}

/** Scans each page once it is ready; returns the serious and critical violations by page. */
async function axePages(browser: Browser, baseURL: string, viewport: { width: number; height: number }, signedIn: boolean) {
  // Reduced motion, so axe never reads a colour mid-transition.
  const context = await browser.newContext({ baseURL, viewport, reducedMotion: 'reduce' });
  const page = await context.newPage();
  const found: Record<string, string[]> = {};
  const check = async (label: string) => {
    const bad = await seriousViolations(page);
    if (bad.length) found[label] = bad;
  };
  const scan = async (path: string, ready: () => Promise<void>) => {
    await page.goto(path);
    await ready();
    await check(path);
  };
  const h1 = (name: string | RegExp) => () => expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  try {
    if (!signedIn) {
      await scan('/', h1('Never Miss Another Perfect Event'));
      await scan('/login', h1('Sign in'));
      await scan('/signup', h1('Create your account'));
      return found;
    }
    await signIn(page, baseURL);
    await scan('/dashboard', async () => {
      await expect(page.getByTestId('event-results').getByTestId('event-card').first()).toBeVisible();
    });
    await scan(`/events/${await eventId(page, SEED.zebra)}`, h1(SEED.zebra));
    await scan('/qr-scanner', async () => {
      await expect(page.getByRole('button', { name: 'Try a demo code' })).toBeVisible();
    });
    await scan('/leaderboard', async () => {
      await h1('Leaderboard')();
      await expect(page.getByRole('status', { name: 'Loading the leaderboard' })).toHaveCount(0);
    });
    await scan('/admin/sources', h1('Sources'));
    await scan('/map', h1('Quest Map'));
    // The Interface Mode panel, open.
    await modeControl(page).click();
    await expect(page.getByRole('switch', { name: 'Admin mode' })).toBeVisible();
    await check('/map with the Interface Mode panel open');
    return found;
  } finally {
    await context.close();
  }
}

for (const size of SIZES) {
  test(`at ${size.width} px the landing, sign-in and sign-up pages have no serious or critical accessibility violations`, async ({ browser, baseURL }) => {
    expect(await axePages(browser, baseURL!, size, false)).toEqual({});
  });
  test(`at ${size.width} px the signed-in pages have no serious or critical accessibility violations`, async ({ browser, baseURL }) => {
    test.setTimeout(120_000);
    expect(await axePages(browser, baseURL!, size, true)).toEqual({});
  });
}
