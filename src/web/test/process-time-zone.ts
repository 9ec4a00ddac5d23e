import { afterAll, beforeAll } from 'vitest';

/** Runs a test file's tests as on a device in `zone` (the process's TZ), restoring it after. */
export function inProcessTimeZone(zone: string) {
  const saved = process.env.TZ;
  beforeAll(() => {
    process.env.TZ = zone;
  });
  afterAll(() => {
    if (saved === undefined) delete process.env.TZ;
    else process.env.TZ = saved;
  });
}
