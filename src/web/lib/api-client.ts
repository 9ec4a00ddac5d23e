import { QueryClient, type QueryFunction } from '@tanstack/react-query';

/** A non-success response: message is "{status}: {body text or status text}" (spec section 8). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly body: string,
  ) {
    super(message);
  }
  /**
   * The server's `message` field when the body is our JSON error shape. A 400's field issues are
   * told as a person reads them: 'price must be at most 10000', not 'body.price: price must ...'
   * (the field is named by its last segment when the message does not name it).
   */
  get serverMessage(): string | undefined {
    try {
      const parsed = JSON.parse(this.body) as { message?: unknown; issues?: unknown };
      if (Array.isArray(parsed.issues) && parsed.issues.length) {
        const told = (parsed.issues as { path?: unknown; message?: unknown }[]).flatMap((i) => {
          if (typeof i.message !== 'string') return [];
          const field = typeof i.path === 'string' ? (i.path.split('.').at(-1) ?? '') : '';
          return [!field || field === 'body' || i.message.toLowerCase().includes(field.toLowerCase()) ? i.message : `${field}: ${i.message}`];
        });
        if (told.length) return told.join('; ');
      }
      return typeof parsed.message === 'string' ? parsed.message : undefined;
    } catch {
      return undefined;
    }
  }
}

export async function throwIfResNotOk(res: Response): Promise<void> {
  if (res.ok) return;
  const text = (await res.text()) || res.statusText;
  throw new ApiError(res.status, `${res.status}: ${text}`, text);
}

/** Sends a JSON request with cookies; throws ApiError on a non-success status. */
export async function apiRequest(method: string, url: string, data?: unknown): Promise<Response> {
  const res = await fetch(url, {
    method,
    headers: data !== undefined ? { 'Content-Type': 'application/json' } : {},
    body: data !== undefined ? JSON.stringify(data) : undefined,
    credentials: 'include',
  });
  await throwIfResNotOk(res);
  return res;
}

/** JSON body of a request, typed by the caller's contract type. */
export async function apiJson<T>(method: string, url: string, data?: unknown): Promise<T> {
  const res = await apiRequest(method, url, data);
  return (await res.json()) as T;
}

/** The generic fetch: a GET to the query key's segments joined with slashes (spec section 7). */
export function getQueryFn<T>(options: { on401: 'returnNull' | 'throw' }): QueryFunction<T | null> {
  return async ({ queryKey }) => {
    const url = queryKey.filter((k) => typeof k === 'string' || typeof k === 'number').join('/');
    const res = await fetch(url, { credentials: 'include' });
    if (options.on401 === 'returnNull' && res.status === 401) return null;
    await throwIfResNotOk(res);
    return (await res.json()) as T;
  };
}

/** Query defaults of spec section 9: never stale, no focus refetch, no polling, no retries. */
export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        queryFn: getQueryFn({ on401: 'throw' }),
        refetchInterval: false,
        refetchOnWindowFocus: false,
        staleTime: Infinity,
        retry: false,
      },
      mutations: { retry: false },
    },
  });
}
