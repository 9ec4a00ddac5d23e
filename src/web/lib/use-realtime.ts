import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useSyncExternalStore } from 'react';
import { useAuth } from '../features/auth/auth.queries.ts';
import { connectRealtime, type ConnectionState } from './realtime-client.ts';

// The one connection's state, shared: the app shell owns the connection, other views (the
// Discover home's 'Live Updates' tag) read its state.
let current: ConnectionState = 'disconnected';
const listeners = new Set<() => void>();
function setShared(s: ConnectionState) {
  current = s;
  for (const l of listeners) l();
}
const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};

/** The live connection's state as the app shell's `useRealtime` last reported it. */
export function useRealtimeState(): ConnectionState {
  return useSyncExternalStore(subscribe, () => current, () => current);
}

/** Keeps one live connection while someone is signed in; returns its state. */
export function useRealtime(onNotification?: (data: Record<string, unknown>) => void): ConnectionState {
  const client = useQueryClient();
  const { user } = useAuth();
  const userId = user?.id;
  useEffect(() => {
    if (!userId) return;
    const conn = connectRealtime({ client, onState: setShared, onNotification });
    return () => {
      conn.close();
      setShared('disconnected');
    };
  }, [client, userId, onNotification]);
  return useRealtimeState();
}
