/** Time as a dependency, so tests can move it. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock tests set and advance by hand. */
export function createManualClock(start: Date | string = '2026-06-01T12:00:00Z') {
  let current = new Date(start).getTime();
  return {
    now: () => new Date(current),
    set: (d: Date | string) => {
      current = new Date(d).getTime();
    },
    advance: (ms: number) => {
      current += ms;
    },
  };
}
