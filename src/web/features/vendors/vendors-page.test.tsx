import { act, configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Route } from 'wouter';
import type { Vendor, VendorDetail, VendorListResponse } from '../../../contract/vendors.ts';
import { dismissToast } from '../../components/ui/use-toast.ts';
import { buildUser, json, renderApp, stubFetch } from '../events/test-helpers.tsx';
import VendorPage, { APPEARANCES_FOLDED } from './vendor-page.tsx';
import VendorsPage from './vendors-page.tsx';
import { WhoIsHere } from './who-is-here.tsx';

configure({ asyncUtilTimeout: 5000 });
afterEach(() => {
  vi.unstubAllGlobals();
  act(() => dismissToast());
});

let seq = 0;
function vendor(over: Partial<Vendor> = {}): Vendor {
  seq += 1;
  return {
    id: `vendor_${seq}`,
    name: `Vendor ${seq}`,
    description: 'Good things',
    category: 'food_beverage',
    location: 'Hawthorne, Portland',
    booth: 'Stall 1',
    hours: 'Sat 9–2',
    rating: 4.5,
    ratingCount: 10,
    products: [],
    featured: false,
    latitude: null,
    longitude: null,
    isDemo: true,
    ...over,
  };
}

const response = (vendors: Vendor[]): VendorListResponse => ({
  vendors,
  categories: [
    { id: 'food_beverage', name: 'Food & Beverage', count: vendors.filter((v) => v.category === 'food_beverage').length },
    { id: 'arts_crafts', name: 'Arts & Crafts', count: vendors.filter((v) => v.category === 'arts_crafts').length },
    { id: 'outdoor_gear', name: 'Outdoor Gear', count: 0 },
    { id: 'local_services', name: 'Local Services', count: 0 },
  ],
  featuredVendors: vendors.filter((v) => v.featured),
});

const page = (
  <Route path="/vendors">
    <VendorsPage />
  </Route>
);

describe('VendorsPage', { timeout: 30_000 }, () => {
  it('shows featured and all vendors, 3 products and +N more, and asks the server for the filters', async () => {
    const bakery = vendor({ name: 'Rosebud Bakehouse', featured: true, products: ['Sourdough', 'Galettes', 'Cookies', 'Rye', 'Buns'] });
    const mugs = vendor({ name: 'Kiln & Kettle', category: 'arts_crafts' });
    const fetch = stubFetch((url) => {
      if (url.pathname !== '/api/vendors') return undefined;
      if (url.searchParams.get('search') === 'nothing') return json(response([]));
      if (url.searchParams.get('category') === 'arts_crafts') return json(response([mugs]));
      return json(response([bakery, mugs]));
    });
    renderApp(page, { path: '/vendors', user: buildUser() });

    const featured = await screen.findByTestId('featured-vendors');
    expect(within(featured).getByRole('article', { name: 'Rosebud Bakehouse' })).toBeTruthy();
    const all = screen.getByTestId('all-vendors');
    expect(within(all).getByRole('heading', { name: 'All Vendors (2)' })).toBeTruthy();
    const card = within(all).getByRole('article', { name: 'Rosebud Bakehouse' });
    expect(within(card).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['Sourdough', 'Galettes', 'Cookies', '+2 more']);
    expect(screen.queryByRole('button', { name: 'Add vendor' })).toBeNull();

    const categories = screen.getByRole('group', { name: 'Category' });
    expect(within(categories).getByRole('button', { name: 'All (2)' })).toBeTruthy();
    fireEvent.click(within(categories).getByRole('button', { name: 'Arts & Crafts (1)' }));
    await waitFor(() => expect(within(screen.getByTestId('all-vendors')).queryByRole('article', { name: 'Rosebud Bakehouse' })).toBeNull());
    expect(fetch.mock.calls.some(([u]) => String(u) === '/api/vendors?category=arts_crafts')).toBe(true);

    fireEvent.change(screen.getByRole('searchbox', { name: 'Search vendors' }), { target: { value: 'nothing' } });
    expect(await screen.findByText('No vendors found matching your criteria.')).toBeTruthy();
    expect(fetch.mock.calls.some(([u]) => String(u) === '/api/vendors?search=nothing&category=arts_crafts')).toBe(true);

    fireEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
    await screen.findByTestId('featured-vendors');
    fireEvent.click(screen.getByRole('button', { name: 'List view' }));
    expect(screen.getAllByTestId('vendor-card').every((c) => c.dataset.variant === 'list')).toBe(true);
  });

  it('offers admins the Add vendor dialog', async () => {
    stubFetch((url) => (url.pathname === '/api/vendors' ? json(response([])) : undefined));
    renderApp(page, { path: '/vendors', user: buildUser({ role: 'admin' }) });
    fireEvent.click(await screen.findByRole('button', { name: 'Add vendor' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add vendor' });
    expect(within(dialog).getByLabelText('Owner email (optional)')).toBeTruthy();
    expect(within(dialog).getByLabelText('Featured vendor')).toBeTruthy();
  });

  it('shows an error with Try again when the list cannot load', async () => {
    stubFetch(() => json({ message: 'boom' }, { status: 500 }));
    renderApp(page, { path: '/vendors', user: buildUser() });
    expect(await screen.findByRole('heading', { name: 'Vendors could not be loaded' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
  });
});

describe('WhoIsHere', () => {
  it("lists the event's vendors with their booths, and nothing when there are none", async () => {
    stubFetch((url) =>
      url.pathname === '/api/events/e1/vendors' ? json({ vendors: [{ id: 'vendor_9', name: 'Willow Creek Honey', category: 'food_beverage', booth: 'Stall 22', products: ['Honey'] }] }) : json({ vendors: [] }),
    );
    renderApp(<WhoIsHere eventId="e1" />, { user: buildUser() });
    const section = await screen.findByTestId('who-is-here');
    expect(within(section).getByRole('heading', { name: "Who's here" })).toBeTruthy();
    expect(within(section).getByRole('link', { name: 'Willow Creek Honey' }).getAttribute('href')).toBe('/vendors/vendor_9');
    expect(section.textContent).toContain('Food & Beverage · Stall 22');
  });
});

describe('VendorPage', () => {
  it('folds a long list of upcoming appearances and shows every one on Show all', async () => {
    const day = (i: number) => new Date(Date.UTC(2026, 11, 5 + 7 * i, 17)).toISOString();
    const appearances = Array.from({ length: 30 }, (_, i) => ({
      id: `a${i}`,
      eventId: `e${i}`,
      eventTitle: `Saturday Market ${i + 1}`,
      startDate: day(i),
      endDate: day(i),
      timeZone: 'America/Los_Angeles',
      allDay: false,
      venue: 'Park Blocks',
      booth: 'A1',
    }));
    const detail: VendorDetail = { ...vendor({ id: 'vendor_t', name: 'Tamale Stand' }), productList: [], appearances, followerCount: 0, isFollowing: false, canEdit: false, owner: null };
    stubFetch((url) => (url.pathname === '/api/vendors/vendor_t' ? json(detail) : undefined));
    renderApp(
      <Route path="/vendors/:id">
        <VendorPage />
      </Route>,
      { path: '/vendors/vendor_t', user: buildUser() },
    );
    const list = await screen.findByTestId('vendor-appearances');
    expect(within(list).getAllByRole('link')).toHaveLength(APPEARANCES_FOLDED);
    fireEvent.click(screen.getByRole('button', { name: 'Show all 30 appearances' }));
    expect(within(list).getAllByRole('link').map((l) => l.textContent)).toEqual(appearances.map((a) => a.eventTitle));
    fireEvent.click(screen.getByRole('button', { name: 'Show fewer' }));
    expect(within(list).getAllByRole('link')).toHaveLength(APPEARANCES_FOLDED);
  });
});
