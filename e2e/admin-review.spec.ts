import { randomBytes } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { ADMIN, hasChromium, NO_CHROMIUM, signInThroughUi } from './fixtures.ts';

// Skipped only on a machine without Debian's Chromium (a developer's): in CI hasChromium is true and
// playwright.config.ts fails the run when Chromium is missing, so these tests always run there.
test.skip(!hasChromium, NO_CHROMIUM); // Reason: Chromium is absent on this machine; CI installs it and fails the run without it.

const DAY = 24 * 3600_000;
const unique = () => `${Date.now().toString(36)}${process.pid}`;

/** Creates a pending event through the admin API with the page's (signed-in) cookies. */
async function createPending(page: Page, baseURL: string, title: string, daysAhead: number): Promise<string> {
  const start = new Date(Date.now() + daysAhead * DAY);
  start.setUTCHours(19, 0, 0, 0);
  const res = await page.request.post('/api/admin/events', {
    headers: { origin: baseURL },
    data: {
      title,
      description: 'Submitted by a neighbour; waiting for review.',
      category: 'Food',
      sourceType: 'facebook',
      startDate: start.toISOString(),
      venue: 'Laurelhurst Park',
      status: 'pending',
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

/** A toast's text: Radix also renders an announcement copy, so take the first match. */
// Toasts sit outside the dialog, which hides the rest of the page from the accessibility tree: match by text.
const toastWith = (page: Page, text: string | RegExp) => page.getByText(text).first();

test('the admin approves, edits and rejects pending events from the My Events overlay', async ({ page, baseURL, browser }) => {
  await signInThroughUi(page, ADMIN);
  const id = unique();
  const approveTitle = `Neighbourhood Potluck ${id}`;
  const editTitle = `Garage Sale ${id}`;
  const editedTitle = `Big Garage Sale ${id}`;
  const approveId = await createPending(page, baseURL!, approveTitle, 4);
  await createPending(page, baseURL!, editTitle, 5);

  // Not public while pending.
  const anon = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  expect((await anon.request.get(`/api/events/${approveId}`)).status()).toBe(404);

  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'My Events' }).click();
  const dialog = page.getByRole('dialog', { name: 'Admin Dashboard' });
  await expect(dialog).toBeVisible();
  for (const label of ['Total Events', "Today's Events", 'Data Sources', 'AI Accuracy']) await expect(dialog.getByText(label, { exact: true })).toBeVisible();
  await expect(dialog.getByRole('heading', { name: 'Recent Events Requiring Review' })).toBeVisible();
  await expect(dialog.getByRole('link', { name: 'Manage sources' })).toHaveAttribute('href', '/admin/sources');

  // Approve: toast, row gone, and the event is public.
  const approveRow = dialog.getByRole('row').filter({ hasText: approveTitle });
  await expect(approveRow.getByText('Pending Review')).toBeVisible();
  await approveRow.getByRole('button', { name: 'Approve' }).click();
  await expect(toastWith(page, 'Event approved successfully')).toBeVisible();
  await expect(approveRow).toHaveCount(0);

  const publicPage = await anon.newPage();
  await publicPage.goto(`/events/${approveId}`);
  await expect(publicPage.getByRole('heading', { level: 1, name: approveTitle })).toBeVisible();
  await anon.close();

  // Edit the other: the new title shows in its row.
  const editRow = dialog.getByRole('row').filter({ hasText: editTitle });
  await editRow.getByRole('button', { name: 'Edit' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit event' });
  await expect(edit.getByLabel('Title')).toHaveValue(editTitle);
  await expect(edit.getByLabel('Category')).toHaveValue('Food');
  await expect(edit.getByLabel('Venue')).toHaveValue('Laurelhurst Park');
  await edit.getByLabel('Title').fill(editedTitle);
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(toastWith(page, 'Event updated')).toBeVisible();
  await expect(edit).toHaveCount(0);
  const editedRow = dialog.getByRole('row').filter({ hasText: editedTitle });
  await expect(editedRow).toHaveCount(1);

  // ... then reject it.
  await editedRow.getByRole('button', { name: 'Reject' }).click();
  await expect(toastWith(page, 'Event rejected successfully')).toBeVisible();
  await expect(editedRow).toHaveCount(0);
});

test('the admin uploads a CSV file as a source on /admin/sources, maps its columns, runs it now and is pointed to what it left out', async ({ page }) => {
  await signInThroughUi(page, ADMIN);
  await page.goto('/admin/sources');
  await expect(page.getByRole('heading', { level: 1, name: 'Sources' })).toBeVisible();

  const id = unique();
  const name = `Picnic sheet ${id}`;
  const day = new Date(Date.now() + 3 * DAY).toISOString().slice(0, 10);
  // A title no earlier run shares (ids made from the clock share a prefix, and near-identical
  // titles at one park and time are rightly merged into the earlier run's event).
  const picnic = `Picnic ${randomBytes(6).toString('hex')}`;
  // The second row has no title: the run leaves it out and says so.
  const csv = `Event,Starts,Park\n${picnic},${day} 12:00,Laurelhurst Park\n,${day} 13:00,Laurelhurst Park\n`;

  await page.getByRole('button', { name: 'Add source' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add source' });
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByLabel('Connector').selectOption('csv');
  await dialog.getByLabel('Source type').fill('municipal');
  await expect(dialog.getByLabel('Interval (minutes)')).toHaveValue('10');
  // A file from the admin's computer; its columns are read and mapped on screen.
  await dialog.getByLabel('Upload a CSV file').setInputFiles({ name: 'picnics.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await expect(dialog.getByTestId('csv-file')).toContainText('2 rows, 3 columns');
  await expect(dialog.getByLabel('Title column *')).toHaveValue('Event');
  await dialog.getByLabel('Start column *').selectOption('Starts');
  await dialog.getByLabel('Venue column').selectOption('Park');
  await dialog.getByRole('button', { name: 'Add source' }).click();
  await expect(toastWith(page, 'Source added')).toBeVisible();
  await expect(dialog).toHaveCount(0);

  const item = page.getByRole('listitem').filter({ has: page.getByRole('heading', { level: 2, name }) });
  await expect(item.getByText('csv', { exact: true })).toBeVisible();
  await expect(item.getByText('municipal', { exact: true })).toBeVisible();
  // A new source is also queued for a first run at once, so this manual run may find the
  // picnic already stored ('created 0'): either way it finishes, and the picnic awaits review.
  await item.getByRole('button', { name: 'Run now' }).click();
  await expect(toastWith(page, `Run finished: ${name}`)).toBeVisible({ timeout: 20_000 });
  await expect(item.getByText('Events seen').locator('xpath=following-sibling::dd[1]')).toHaveText('1');
  const pending = (await (await page.request.get('/api/admin/events/pending')).json()) as { title: string; venue?: string }[];
  expect(pending.map((e) => e.title)).toContain(picnic);

  // Its health and history now show the run, and what it left out.
  await expect(item.getByText('Never')).toHaveCount(0);
  await expect(item.getByTestId('source-last-skipped')).toContainText('1 entry of the feed could not be used.');
  await item.getByRole('button', { name: 'History' }).click();
  await expect(item.getByRole('table').getByText('manual')).toBeVisible();
  // What the run noted is named, with the row to find it by.
  await expect(item.getByRole('table').getByText(/, skipped 1$/).first()).toBeVisible();
  await expect(item.getByRole('list', { name: 'What the run noted' }).first()).toHaveText('1 entry had no title (e.g. “row 3”)');

  // The admin's Overview points to it too, and leads back to the Sources page.
  await page.goto('/admin');
  const attention = page.getByTestId('sources-attention');
  await expect(attention).toContainText(/\d+ sources? could not use some entries of (its|their) feed/);
  await attention.getByRole('link', { name: 'Review sources' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Sources' })).toBeVisible();
  await expect(page).toHaveURL(/\/admin\/sources$/);
});

test("the admin shows an event's check-in QR code on its page, ready to print", async ({ page, baseURL }) => {
  await signInThroughUi(page, ADMIN);
  const title = `Porch Concert ${unique()}`;
  const id = await createPending(page, baseURL!, title, 3);
  expect((await page.request.post(`/api/admin/events/${id}/approve`, { headers: { origin: baseURL! } })).status()).toBe(200);
  await page.goto(`/events/${id}`);
  await page.getByRole('button', { name: 'Check-in QR code' }).click();
  const dialog = page.getByRole('dialog', { name: 'Check-in QR code' });
  const img = dialog.getByRole('img', { name: `Check-in QR code for ${title}` });
  await expect(img).toBeVisible();
  // The signed SVG really loaded (same-origin, admin cookie, allowed by the CSP).
  await expect.poll(() => img.evaluate((el) => (el as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
  const png = await page.request.get(await dialog.getByRole('link', { name: 'Download PNG' }).getAttribute('href').then((h) => h!));
  expect(png.headers()['content-type']).toBe('image/png');
});

test("the Admin page's Overview says what waits for review, and Review them opens the dashboard", async ({ page, baseURL }) => {
  await signInThroughUi(page, ADMIN);
  const title = `Porch Concert ${unique()}`;
  await createPending(page, baseURL!, title, 4);
  await page.goto('/admin');
  const line = page.getByTestId('awaiting-decision');
  await expect(line).toContainText(/\d+ events? waits? for review/);
  const waiting = async () => Number((/([\d,]+) events? waits? for review/.exec((await line.textContent()) ?? '')?.[1] ?? '0').replace(/,/g, ''));
  const before = await waiting();
  await line.getByRole('button', { name: 'Review them' }).click();
  const dashboard = page.getByRole('dialog', { name: 'Admin Dashboard' });
  await expect(dashboard).toBeVisible();
  const row = dashboard.getByTestId('review-row').filter({ hasText: title });
  await row.getByRole('button', { name: 'Approve' }).click();
  await expect(row).toHaveCount(0);
  // Back on the Overview, under the dashboard all along: the count follows the decision.
  await dashboard.getByRole('button', { name: 'Close' }).click();
  await expect(dashboard).toBeHidden();
  await expect.poll(waiting).toBe(before - 1);
});
