import type { QueryClient } from '@tanstack/react-query';
import { WS_RECONNECT_ATTEMPTS, WS_RECONNECT_DELAY_MS, type ServerMessage } from '../../contract/realtime.ts';
import type { AuthUser } from '../../contract/auth.ts';

/** 'connecting' on the first attempt, 'reconnecting' between retries, 'disconnected' once they ran out. */
export type ConnectionState = 'connecting' | 'connected' | 'reconnecting' | 'disconnected';

/**
 * Event updates come in bursts (an ingestion run announces every event it stores): the event
 * lists are refetched once per burst, this long after its first message, not once per message.
 */
export const EVENT_UPDATE_COALESCE_MS = 500;
const pendingEventRefresh = new WeakMap<QueryClient, ReturnType<typeof setTimeout>>();

function refreshEventsSoon(client: QueryClient) {
  if (pendingEventRefresh.has(client)) return;
  pendingEventRefresh.set(
    client,
    setTimeout(() => {
      pendingEventRefresh.delete(client);
      void client.invalidateQueries({ predicate: (q) => typeof q.queryKey[0] === 'string' && q.queryKey[0].startsWith('/api/events') });
    }, EVENT_UPDATE_COALESCE_MS),
  );
}

/** The queries a message on /ws keeps fresh; `catchUp` refetches them when a socket (re)opens. */
const GAMING_KEYS = ['/api/gaming/progress', '/api/gaming/leaderboard', '/api/user/stats', '/api/user/activities', '/api/user/badges'];

/**
 * A message published while no socket was open (before the first open, or in a reconnect gap)
 * never arrives, so on every open the queries that messages would have updated are refetched:
 * the signed-in user (points), the gaming screens and notifications, and after a gap the event
 * lists too. Only queries some screen is showing are refetched.
 */
export function catchUp(client: QueryClient, afterGap: boolean) {
  for (const key of ['/api/auth/user', '/api/notifications', ...GAMING_KEYS]) void client.invalidateQueries({ queryKey: [key] });
  if (afterGap) refreshEventsSoon(client);
}

/**
 * New points: the chip at once, and every gaming view from the server. A fetch of the signed-in
 * user started before these points were paid may still be in flight; its older total would land
 * after this one and stay. Invalidating the user cancels that fetch and asks again, and the answer
 * can only be this total or a newer one (points are announced after their transaction commits).
 */
export function applyNewTotal(client: QueryClient, total: number) {
  client.setQueryData<AuthUser | null>(['/api/auth/user'], (u) => (u ? { ...u, points: total } : u));
  for (const key of ['/api/auth/user', ...GAMING_KEYS]) void client.invalidateQueries({ queryKey: [key] });
}

/** Applies one server message to the query cache, so every screen updates without a reload. */
export function applyServerMessage(client: QueryClient, msg: ServerMessage, onNotification?: (data: Record<string, unknown>) => void) {
  switch (msg.type) {
    case 'gaming_update':
      applyNewTotal(client, msg.data.points);
      break;
    case 'event_update':
      refreshEventsSoon(client);
      break;
    case 'notification':
      void client.invalidateQueries({ queryKey: ['/api/notifications'] });
      onNotification?.(msg.data);
      break;
    case 'buzz':
      void client.invalidateQueries({ queryKey: ['/api/community/buzz'] });
      break;
    case 'pong':
      break;
  }
}

/**
 * Connects to the same origin's /ws, reconnecting up to 5 times 3000 ms apart (spec section 9).
 * Parse and connection errors are only logged.
 */
export function connectRealtime(opts: {
  client: QueryClient;
  onState?: (s: ConnectionState) => void;
  onNotification?: (data: Record<string, unknown>) => void;
  url?: string;
}) {
  const url = opts.url ?? `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`;
  let attempts = 0;
  let socket: WebSocket | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  let opened = false;

  const open = () => {
    if (attempts === 0) opts.onState?.('connecting');
    socket = new WebSocket(url);
    socket.onopen = () => {
      attempts = 0;
      opts.onState?.('connected');
      catchUp(opts.client, opened);
      opened = true;
    };
    socket.onmessage = (e) => {
      try {
        applyServerMessage(opts.client, JSON.parse(String(e.data)) as ServerMessage, opts.onNotification);
      } catch (err) {
        console.error('Realtime message could not be parsed', err);
      }
    };
    socket.onerror = () => console.error('Realtime connection error');
    socket.onclose = () => {
      if (stopped || attempts >= WS_RECONNECT_ATTEMPTS) {
        opts.onState?.('disconnected');
        return;
      }
      opts.onState?.('reconnecting');
      attempts += 1;
      timer = setTimeout(open, WS_RECONNECT_DELAY_MS);
    };
  };
  open();
  return {
    /** Sends a JSON message with a timestamp added. */
    send(data: Record<string, unknown>) {
      if (socket?.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ ...data, timestamp: Date.now() }));
    },
    close() {
      stopped = true;
      clearTimeout(timer);
      socket?.close();
    },
  };
}
