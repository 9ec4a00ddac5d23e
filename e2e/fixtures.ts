import { existsSync } from 'node:fs';
import { expect, type Page } from '@playwright/test';

export const hasChromium = existsSync(process.env.CHROMIUM_PATH ?? '/usr/bin/chromium') || Boolean(process.env.CI);
export const NO_CHROMIUM = 'Chromium is not installed at /usr/bin/chromium (apt-get install chromium)';

/** The first account of every e2e run, made in global setup: an admin. */
export const ADMIN = { email: 'admin@townbeat.test', password: 'admin password 1', firstName: 'Avery', lastName: 'Admin' };

let n = 0;
export function newUser() {
  n += 1;
  const id = `${Date.now().toString(36)}${process.pid}${n}`;
  return { email: `person-${id}@townbeat.test`, password: 'a good password', firstName: 'Pat', lastName: `Person${n}` };
}

/** Signs up through the real sign-up page, skips the interests step and waits for the signed-in home. */
export async function signUpThroughUi(page: Page, user = newUser()) {
  await page.goto('/signup');
  await page.getByLabel('First name').fill(user.firstName);
  await page.getByLabel('Last name').fill(user.lastName);
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel(/^Password/).fill(user.password);
  await page.getByRole('button', { name: 'Create account' }).click();
  // Every new account passes the short interests step; the helper skips it.
  await page.waitForURL((u) => u.pathname === '/welcome');
  await page.getByRole('button', { name: 'Skip' }).click();
  await page.waitForURL((u) => u.pathname !== '/welcome');
  await expect(page.getByRole('button', { name: 'Account menu' })).toBeVisible();
  return user;
}

/** Signs in through the real sign-in page. */
export async function signInThroughUi(page: Page, user: { email: string; password: string }) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('button', { name: 'Account menu' })).toBeVisible();
}
