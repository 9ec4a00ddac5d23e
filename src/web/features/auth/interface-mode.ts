import { useCallback, useSyncExternalStore } from 'react';

export type InterfaceMode = 'user' | 'admin';
const KEY = 'interfaceMode';
const listeners = new Set<() => void>();

/** The stored mode; anything but 'user' or 'admin' falls back to the default, admin. */
export function readInterfaceMode(): InterfaceMode {
  try {
    const v = localStorage.getItem(KEY);
    return v === 'user' || v === 'admin' ? v : 'admin';
  } catch {
    return 'admin';
  }
}

export function writeInterfaceMode(mode: InterfaceMode) {
  if (mode !== 'user' && mode !== 'admin') return;
  try {
    localStorage.setItem(KEY, mode);
  } catch {
    // Storage can be disabled; the choice then lasts for this page only.
  }
  listeners.forEach((l) => l());
}

/** The admin's user/admin view switch, shared by every component that reads it. */
export function useInterfaceMode(): [InterfaceMode, (m: InterfaceMode) => void] {
  const mode = useSyncExternalStore(
    (cb) => {
      listeners.add(cb);
      return () => listeners.delete(cb);
    },
    readInterfaceMode,
    () => 'admin' as const,
  );
  return [mode, useCallback((m: InterfaceMode) => writeInterfaceMode(m), [])];
}
