import { act, renderHook } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { addToCart, CART_KEY, cartSummary, clearCart, setCartQuantity, useCart } from './cart.ts';

const soap = { id: 'p1', name: 'Lavender Soap', price: 6.5, vendorName: 'Lavender Lane', inStock: true };
const loaf = { id: 'p2', name: 'Rye Loaf', price: 9.1, vendorName: 'Hearth', inStock: true };

describe('the cart', () => {
  beforeEach(() => {
    localStorage.clear();
    clearCart();
  });

  it('adds in-stock products only, with no quantity limit, and sums count and total in cents', () => {
    const { result } = renderHook(() => useCart());
    act(() => {
      for (let i = 0; i < 120; i += 1) addToCart(soap);
      addToCart(loaf);
      addToCart({ ...loaf, id: 'p3', inStock: false });
    });
    expect(result.current.lines.map((l) => [l.productId, l.quantity])).toEqual([
      ['p1', 120],
      ['p2', 1],
    ]);
    expect(result.current.count).toBe(121);
    expect(result.current.total).toBe(789.1);
  });

  it('keeps the cart in localStorage, so a reload (a fresh read) finds it', () => {
    act(() => addToCart(soap));
    expect(JSON.parse(localStorage.getItem(CART_KEY) ?? '[]')).toEqual([{ productId: 'p1', name: 'Lavender Soap', price: 6.5, vendorName: 'Lavender Lane', quantity: 1 }]);
    const { result } = renderHook(() => useCart());
    expect(result.current.count).toBe(1);
  });

  it('changes and removes lines, and ignores a corrupt stored value', () => {
    const { result } = renderHook(() => useCart());
    act(() => {
      addToCart(soap);
      addToCart(loaf);
      setCartQuantity('p1', 4);
      setCartQuantity('p2', 0);
    });
    expect(result.current.lines.map((l) => [l.productId, l.quantity])).toEqual([['p1', 4]]);
    localStorage.setItem(CART_KEY, '{not json');
    expect(cartSummary(renderHook(() => useCart()).result.current.lines)).toEqual({ count: 0, total: 0 });
  });
});
