import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { FulfilBody, Order, OrderCreateBody, OrderListResponse, Product, ShopResponse, VendorOrder, VendorOrderListResponse, VendorProductsResponse } from '../../../contract/shop.ts';
import { ApiError, apiJson } from '../../lib/api-client.ts';
import { useAuth } from '../auth/auth.queries.ts';

/** Query keys are the URL segments (spec section 7); the filters ride along as the last part. */
export const SHOP_KEYS = {
  shop: ['/api/shop'] as const,
  orders: ['/api/shop/orders'] as const,
  order: (id: string) => ['/api/shop/orders', id] as const,
  vendorOrders: ['/api/shop/vendor-orders'] as const,
};

export interface ShopFilters {
  category: string;
  search: string;
}

/** US dollars, always two decimals. */
export const formatPrice = (n: number) => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(n);

/** The server's reason for a failed call (409 "Only 0 left of ..."), else the spec's message form. */
export const shopErrorMessage = (err: unknown) => (err instanceof ApiError ? (err.serverMessage ?? err.message) : 'Something went wrong. Please try again.');

/** GET /api/shop with optional category and search. */
export function useShop(f: ShopFilters) {
  const params = new URLSearchParams();
  if (f.category && f.category !== 'all') params.set('category', f.category);
  if (f.search.trim()) params.set('search', f.search.trim());
  const qs = params.toString();
  return useQuery<ShopResponse>({
    queryKey: [...SHOP_KEYS.shop, { category: f.category, search: f.search.trim() }],
    queryFn: () => apiJson<ShopResponse>('GET', `/api/shop${qs ? `?${qs}` : ''}`),
    placeholderData: (prev) => prev,
  });
}

/** POST /api/shop/orders: reserves the cart for pickup; refreshes stock and my orders. */
export function useCheckout() {
  const client = useQueryClient();
  return useMutation<Order, Error, OrderCreateBody>({
    mutationFn: (body) => apiJson<Order>('POST', '/api/shop/orders', body),
    onSuccess: (order) => {
      client.setQueryData(SHOP_KEYS.order(order.id), order);
      void client.invalidateQueries({ queryKey: SHOP_KEYS.shop });
      void client.invalidateQueries({ queryKey: SHOP_KEYS.orders, exact: true });
    },
    // A refused checkout means the stock changed: show the current numbers.
    onError: () => void client.invalidateQueries({ queryKey: SHOP_KEYS.shop }),
  });
}

export function useMyOrders() {
  return useQuery<OrderListResponse>({ queryKey: SHOP_KEYS.orders, enabled: Boolean(useAuth().user), staleTime: 0 });
}

export function useOrder(id: string) {
  return useQuery<Order>({ queryKey: SHOP_KEYS.order(id), staleTime: 0 });
}

/** POST /api/shop/orders/:id/cancel: the stock goes back. */
export function useCancelOrder() {
  const client = useQueryClient();
  return useMutation<Order, Error, string>({
    mutationFn: (id) => apiJson<Order>('POST', `/api/shop/orders/${encodeURIComponent(id)}/cancel`),
    onSuccess: (order) => {
      client.setQueryData(SHOP_KEYS.order(order.id), order);
      for (const key of [SHOP_KEYS.shop, SHOP_KEYS.orders, SHOP_KEYS.vendorOrders]) void client.invalidateQueries({ queryKey: key });
    },
  });
}

export function useVendorOrders(status: 'open' | 'all') {
  return useQuery<VendorOrderListResponse>({
    queryKey: [...SHOP_KEYS.vendorOrders, status],
    queryFn: () => apiJson<VendorOrderListResponse>('GET', `/api/shop/vendor-orders?status=${status}`),
    staleTime: 0,
  });
}

/** POST /api/shop/vendor-orders/fulfil with the code the buyer shows. */
export function useFulfil() {
  const client = useQueryClient();
  return useMutation<VendorOrder, Error, FulfilBody>({
    mutationFn: (body) => apiJson<VendorOrder>('POST', '/api/shop/vendor-orders/fulfil', body),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: SHOP_KEYS.vendorOrders });
      void client.invalidateQueries({ queryKey: SHOP_KEYS.orders });
    },
  });
}

/** Vendors and admins hand orders over. */
export function useIsVendor() {
  const role = useAuth().user?.role;
  return role === 'vendor' || role === 'admin';
}

export const VENDOR_PRODUCTS_KEY = ['/api/shop/vendor-products'] as const;

/** GET /api/shop/vendor-products: my vendors and their products. */
export function useVendorProducts() {
  return useQuery<VendorProductsResponse>({ queryKey: VENDOR_PRODUCTS_KEY, staleTime: 0 });
}

export type ProductInput = { vendorId: string; name: string; price: number; description: string; category: string; stock: number };

/** POST (no id) or PATCH (id) a product; the catalogue and the editor refresh. */
export function useSaveProduct() {
  const client = useQueryClient();
  return useMutation<Product, Error, { id: string | null; body: ProductInput }>({
    mutationFn: ({ id, body }) => {
      if (id === null) return apiJson<Product>('POST', '/api/shop/products', body);
      const { vendorId: _vendorId, ...rest } = body;
      return apiJson<Product>('PATCH', `/api/shop/products/${encodeURIComponent(id)}`, rest);
    },
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: VENDOR_PRODUCTS_KEY });
      void client.invalidateQueries({ queryKey: SHOP_KEYS.shop });
    },
  });
}
