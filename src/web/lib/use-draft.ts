import { useCallback, useEffect, useState } from 'react';

// A form a person is writing, kept for the tab (sessionStorage) as they type: leaving the page,
// pressing Back or reloading does not lose it; `clear` forgets it once it is sent. Only the
// initial value's keys are read back, with their types, so a stale draft cannot break the form.

const PREFIX = 'townbeat:draft:';

function read<T extends Record<string, unknown>>(key: string, initial: T): T {
  try {
    const raw = sessionStorage.getItem(PREFIX + key);
    if (!raw) return initial;
    const saved = JSON.parse(raw) as Record<string, unknown>;
    const out: Record<string, unknown> = { ...initial };
    for (const k of Object.keys(initial)) if (typeof saved[k] === typeof initial[k]) out[k] = saved[k];
    return out as T;
  } catch {
    return initial;
  }
}

/** Forgets every draft of this tab: on sign-out, so the next person at this computer finds none. */
export function clearDrafts(): void {
  try {
    for (const k of Object.keys(sessionStorage)) if (k.startsWith(PREFIX)) sessionStorage.removeItem(k);
  } catch {
    // Storage refused: there are no drafts to forget.
  }
}

/** A form's state kept as a draft under `key`; `clear` sets it back to `initial` (a constant) and forgets the draft. */
export function useDraft<T extends Record<string, unknown>>(key: string, initial: T): [T, (next: T | ((prev: T) => T)) => void, () => void] {
  const [value, setValue] = useState<T>(() => read(key, initial));
  useEffect(() => {
    try {
      if (JSON.stringify(value) === JSON.stringify(initial)) sessionStorage.removeItem(PREFIX + key);
      else sessionStorage.setItem(PREFIX + key, JSON.stringify(value));
    } catch {
      // Storage refused (private mode, quota): the form still works, without a draft.
    }
  }, [key, value, initial]);
  const clear = useCallback(() => setValue(initial), [initial]);
  return [value, setValue, clear];
}
