import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useAuth } from '../features/auth/auth.queries.ts';
import { connectRealtime, type ConnectionState } from './realtime-client.ts';

/** Keeps one live connection while someone is signed in; returns its state. */
export function useRealtime(onNotification?: (data: Record<string, unknown>) => void): ConnectionState {
  const client = useQueryClient();
  const { user } = useAuth();
  const [state, setState] = useState<ConnectionState>('disconnected');
  const userId = user?.id;
  useEffect(() => {
    if (!userId) return;
    const conn = connectRealtime({ client, onState: setState, onNotification });
    return () => conn.close();
  }, [client, userId, onNotification]);
  return state;
}
