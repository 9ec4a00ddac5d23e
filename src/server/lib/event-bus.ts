import { EventEmitter } from 'node:events';
import type { NotificationResponse } from '../../contract/notifications.ts';

/** Messages other parts of the server announce; the realtime channel forwards them to browsers. */
export interface BusMessages {
  event_update: { id: string; action: 'created' | 'updated' | 'approved' | 'rejected' | 'removed' };
  gaming_update: { userId: string; points: number };
  notification: { userId: string; notification: NotificationResponse };
  /** Someone saved, checked in, shared a story or scanned a flyer: Community Buzz may have changed. */
  buzz: { actorId: string };
}

/** One in-process bus per app instance. */
export function createEventBus() {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(100);
  return {
    publish<K extends keyof BusMessages>(type: K, data: BusMessages[K]) {
      emitter.emit(type, data);
    },
    subscribe<K extends keyof BusMessages>(type: K, fn: (data: BusMessages[K]) => void): () => void {
      emitter.on(type, fn);
      return () => emitter.off(type, fn);
    },
  };
}

export type EventBus = ReturnType<typeof createEventBus>;
