import { afterEach } from 'vitest';
import { cleanup } from '@testing-library/react';

/**
 * The web tests run at a moment of late 2026, whatever day the suite runs: their fixtures carry
 * fixed 2026 dates, and a date shows its year only when it is not this year's. The clock is
 * shifted, not stopped (time goes on at its real pace, from here); a test that fakes timers
 * itself takes over until it restores them.
 */
export const TEST_NOW = Date.parse('2026-11-20T20:00:00Z');
const RealDate = Date;
const offset = TEST_NOW - RealDate.now();
class ShiftedDate extends RealDate {
  constructor(...args: ConstructorParameters<typeof Date> | []) {
    if (args.length === 0) super(RealDate.now() + offset);
    else super(...(args as ConstructorParameters<typeof Date>));
  }
  static override now() {
    return RealDate.now() + offset;
  }
  static override [Symbol.hasInstance](value: unknown) {
    return value instanceof RealDate;
  }
}
// Called as a function, Date() would throw here; the app and its libraries only construct it.
globalThis.Date = ShiftedDate as unknown as DateConstructor;

afterEach(() => {
  cleanup();
  localStorage.clear();
});
