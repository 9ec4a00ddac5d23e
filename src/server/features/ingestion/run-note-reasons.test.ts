import { describe, expect, it } from 'vitest';
import { RELISTED } from './ingestion.service.ts';

// What History says a run did to events listed before: the reasons as an admin reads them.
describe('run note reasons', () => {
  it('says a relisted event may have been removed, cancelled or postponed before', () => {
    // planRun relists all three alike (counts.relisted); a postponed event is not "removed or cancelled".
    expect(RELISTED).toBe('were back in the source after being removed, cancelled or postponed: listed again');
  });
});
