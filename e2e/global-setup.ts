import { ADMIN } from './fixtures.ts';
import { seedEvents } from './seed-events.ts';
import config from '../playwright.config.ts';

/** Makes the run's first account (the admin) through the API once the server is up, then seeds events. */
export default async function globalSetup() {
  const base = config.use?.baseURL ?? 'http://localhost:5123';
  const res = await fetch(`${base}/api/auth/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: base },
    body: JSON.stringify(ADMIN),
  });
  if (res.status !== 201 && res.status !== 409) throw new Error(`could not create the e2e admin: ${res.status} ${await res.text()}`);
  await seedEvents(base);
}
