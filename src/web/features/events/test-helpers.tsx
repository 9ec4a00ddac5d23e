import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { vi } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import type { AuthUser } from '../../../contract/auth.ts';
import type { PublicConfig } from '../../../contract/city.ts';
import type { EventDetail, EventSummary, SavedEvent } from '../../../contract/events.ts';
import { Providers } from '../../app/providers.tsx';
import { createQueryClient } from '../../lib/api-client.ts';
import { AUTH_USER_KEY } from '../auth/auth.queries.ts';
import { CONFIG_KEY } from './events.queries.ts';

/** Test-only helpers for the event and discover screens: builders, a fetch stub, a render wrapper. */

export const CONFIG: PublicConfig = {
  oidc: false,
  city: {
    name: 'Portland',
    timeZone: 'America/Los_Angeles',
    center: { lat: 45.5152, lng: -122.6784 },
    distanceUnit: 'mi',
    locale: 'en-US',
    neighbourhoods: [
      { name: 'Downtown', lat: 45.5152, lng: -122.6784 },
      { name: 'Pearl District', lat: 45.5289, lng: -122.6829 },
      { name: 'Alberta Arts', lat: 45.559, lng: -122.6454 },
      { name: 'Sellwood', lat: 45.4651, lng: -122.6512 },
    ],
  },
};

let seq = 0;
export function buildEvent(over: Partial<EventSummary> = {}): EventSummary {
  seq += 1;
  return {
    id: `00000000-0000-4000-8000-${String(seq).padStart(12, '0')}`,
    title: `Event ${seq}`,
    category: 'Music',
    categoryConfidence: 0.9,
    sourceType: 'meetup',
    sourceUrl: null,
    imageUrl: null,
    imageSrcset: null,
    // Sat, Nov 28 2026, 7:00 PM in Portland (PST, UTC-8).
    startDate: '2026-11-29T03:00:00.000Z',
    endDate: '2026-11-29T05:00:00.000Z',
    timeZone: 'America/Los_Angeles',
    allDay: false,
    venue: 'Crystal Ballroom',
    address: '1332 W Burnside St',
    neighbourhood: 'Downtown',
    lat: 45.5231,
    lng: -122.6853,
    attendeeCount: 42,
    price: null,
    priceMax: null,
    priceNote: null,
    isFree: true,
    isVerified: true,
    isDemo: false,
    status: 'approved',
    favoriteCount: 0,
    moreDates: 0,
    isFavorited: false,
    distance: null,
    ...over,
  };
}

export function buildDetail(over: Partial<EventDetail> = {}): EventDetail {
  const base = buildEvent(over);
  return { ...base, description: 'A night of music.\n\nDoors at 6.', endGiven: true, ended: false, sources: [], removedBySource: false, cancelledBySource: false, postponedBySource: false, calledOffBy: [], stillListedBy: [], mergedRecords: 0, dates: [{ id: base.id, startDate: base.startDate, endDate: base.endDate }], ...over };
}

/** A saved event as /api/user/favorites answers it: listed, upcoming, unless `over` says otherwise. */
export function buildSaved(over: Partial<SavedEvent> = {}): SavedEvent {
  return { ...buildEvent({ isFavorited: true, ...over }), removedBySource: false, cancelledBySource: false, postponedBySource: false, calledOffBy: [], stillListedBy: [], endGiven: true, ended: false, ...over };
}

export const json = (body: unknown, init: ResponseInit = {}) =>
  new Response(JSON.stringify(body), { status: 200, ...init, headers: { 'content-type': 'application/json', ...(init.headers ?? {}) } });

export type Handler = (url: URL, init: RequestInit | undefined) => Response | Promise<Response> | undefined;

/** Stubs fetch; unhandled URLs answer 404 so a test sees what it forgot. */
export function stubFetch(handler: Handler) {
  const fn = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url, 'http://localhost');
    const res = await handler(url, init);
    return res ?? json({ code: 'not_found', message: `no stub for ${url.pathname}` }, { status: 404 });
  });
  vi.stubGlobal('fetch', fn);
  return fn;
}

export function buildUser(over: Partial<AuthUser> = {}): AuthUser {
  return { id: 'u1', email: 'pat@example.test', firstName: 'Pat', lastName: 'Person', profileImageUrl: null, points: 0, role: 'user', ...over };
}

/** Renders inside the app's providers with a memory router; the user and config are pre-seeded. */
export function renderApp(ui: ReactNode, opts: { path?: string; user?: AuthUser | null; config?: PublicConfig | null } = {}) {
  const client = createQueryClient();
  client.setQueryData(AUTH_USER_KEY, opts.user ?? null);
  if (opts.config !== null) client.setQueryData(CONFIG_KEY, opts.config ?? CONFIG);
  const location = memoryLocation({ path: opts.path ?? '/', record: true });
  const result = render(
    <Providers client={client}>
      <Router hook={location.hook} searchHook={location.searchHook}>
        {ui}
      </Router>
    </Providers>,
  );
  return { ...result, client, location };
}
