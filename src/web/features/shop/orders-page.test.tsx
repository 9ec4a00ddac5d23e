import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { inProcessTimeZone } from '../../test/process-time-zone.ts';
import type { Order } from '../../../contract/shop.ts';
import { buildUser, json, renderApp, stubFetch } from '../events/test-helpers.tsx';
import { formatOrderDate } from './order-status.tsx';
import OrdersPage from './orders-page.tsx';

// 03:49 UTC on Nov 28 is 12:49 PM in Tokyo, and 7:49 PM the evening before in Portland.
const PLACED = '2026-11-28T03:49:00.000Z';
const ORDER: Order = {
  id: 'o1',
  status: 'reserved',
  total: 6.5,
  items: [{ id: 'i1', productId: 'p1', vendor: 'vendor_1', vendorName: 'Lavender Lane', booth: 'B4', name: 'Lavender Soap', price: 6.5, quantity: 1, fulfilledAt: null }],
  pickupCode: 'K7P2QX',
  createdAt: PLACED,
  fulfilledAt: null,
  cancelledAt: null,
};

// A browser on the other side of the Pacific: order times still read on the city's clocks.
inProcessTimeZone('Asia/Tokyo');
afterEach(() => vi.unstubAllGlobals());

describe('order times', () => {
  it('runs in a device zone that is not the city', () => {
    expect(new Intl.DateTimeFormat().resolvedOptions().timeZone).toBe('Asia/Tokyo');
  });

  it('formats an order time in the zone given, not the device', () => {
    expect(formatOrderDate(PLACED, 'America/Los_Angeles')).toBe('Nov 27, 2026, 7:49 PM');
  });

  it('/shop/orders shows when an order was placed on the city clock', async () => {
    stubFetch((url) => (url.pathname === '/api/shop/orders' ? json({ orders: [ORDER] }) : undefined));
    renderApp(<OrdersPage />, { user: buildUser() });
    expect(await screen.findByText(/Nov 27, 2026, 7:49 PM/)).toBeTruthy();
    expect(screen.queryByText(/12:49 PM/)).toBeNull();
  });
});
