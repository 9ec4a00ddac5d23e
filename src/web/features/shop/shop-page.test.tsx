import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Order, Product, ShopResponse } from '../../../contract/shop.ts';
import { buildUser, json, renderApp, stubFetch } from '../events/test-helpers.tsx';
import { CART_KEY, clearCart } from './cart.ts';
import ShopPage from './shop-page.tsx';

const product = (over: Partial<Product>): Product => ({
  id: 'p1',
  name: 'Lavender Soap',
  price: 6.5,
  rating: 4.5,
  description: 'Goat milk and lavender',
  category: 'Bath',
  vendor: 'vendor_1',
  vendorName: 'Lavender Lane',
  inStock: true,
  stock: 3,
  isDemo: true,
  ...over,
});

const SHOP: ShopResponse = {
  products: [product({}), product({ id: 'p2', name: 'Oat Soap', inStock: false, stock: 0 })],
  categories: [{ id: 'Bath', name: 'Bath', count: 2 }],
  paymentMethods: [
    { id: 'cash', name: 'Cash at the booth', description: '', available: true },
    { id: 'venmo', name: 'Venmo', description: 'Coming soon', available: false },
  ],
};

describe('ShopPage', () => {
  beforeEach(() => {
    localStorage.clear();
    clearCart();
  });
  afterEach(() => vi.unstubAllGlobals());

  it('shows the cards, the payment badges and the notice; Add to Cart is disabled out of stock', async () => {
    stubFetch((url) => (url.pathname === '/api/shop' ? json(SHOP) : undefined));
    renderApp(<ShopPage />, { path: '/shop', user: buildUser() });
    const soap = await screen.findByRole('article', { name: 'Lavender Soap' });
    expect(within(soap).getByText('$6.50')).toBeTruthy();
    expect(within(soap).getByText('Demo')).toBeTruthy();
    expect((within(screen.getByRole('article', { name: 'Oat Soap' })).getByRole('button', { name: /Add to Cart/ }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByTestId('payment-methods').textContent).toContain('Venmo · Coming soon');
    expect(screen.getByTestId('coming-soon-notice').textContent).toContain('Wallet integration, CashApp, Venmo, delivery and inventory sync are coming soon.');
    expect(screen.queryByRole('link', { name: 'Vendor orders' })).toBeNull();
  });

  it('adds to the cart and checks out; a 409 keeps the cart and shows the reason', async () => {
    let short = true;
    const posted: unknown[] = [];
    stubFetch((url, init) => {
      if (url.pathname === '/api/shop') return json(SHOP);
      if (url.pathname === '/api/shop/orders' && init?.method === 'POST') {
        posted.push(JSON.parse(String(init.body)));
        if (short) return json({ code: 'conflict', message: 'Only 0 left of Lavender Soap' }, { status: 409 });
        const order: Order = { id: 'o1', status: 'reserved', total: 13, items: [], pickupCode: 'ABC234', createdAt: new Date().toISOString(), fulfilledAt: null, cancelledAt: null };
        return json(order, { status: 201 });
      }
      return undefined;
    });
    const { location } = renderApp(<ShopPage />, { path: '/shop', user: buildUser({ role: 'vendor' }) });
    expect(await screen.findByRole('link', { name: 'Vendor orders' })).toBeTruthy();
    const add = within(await screen.findByRole('article', { name: 'Lavender Soap' })).getByRole('button', { name: /Add to Cart/ });
    fireEvent.click(add);
    fireEvent.click(add);
    expect(screen.getByTestId('cart-button').textContent).toContain('Cart (2) · $13.00');
    fireEvent.click(screen.getByTestId('cart-button'));
    fireEvent.click(await screen.findByRole('button', { name: 'Checkout' }));
    expect((await screen.findByTestId('checkout-error')).textContent).toBe('Only 0 left of Lavender Soap');
    expect(posted).toEqual([{ items: [{ productId: 'p1', quantity: 2 }] }]);
    expect(localStorage.getItem(CART_KEY)).toContain('p1');
    short = false;
    fireEvent.click(screen.getByRole('button', { name: 'Checkout' }));
    await waitFor(() => expect(location.history?.at(-1)).toBe('/shop/orders/o1'));
    expect(localStorage.getItem(CART_KEY)).toBeNull();
  });
});
