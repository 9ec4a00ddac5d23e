import { describe, expect, it } from 'vitest';
import { runNoteReason } from '../../../contract/ingestion.ts';
import { BUDGET_NOTE } from './parse/ical.parse.ts';
import { SKIP } from './run-notes.ts';
import { CALLED_OFF_MERGED, CANCELLED_BY_SOURCE, HANDED_BACK, heldBy, MOVED_APART, MOVED_ONTO, POSTPONED_BY_SOURCE, RELINKED, RELISTED, REMOVED_BY_ADMIN, REMOVED_UNSEEN, SUDDEN_DROP_HOLD_HOURS, SUDDEN_DROP_KEPT, UNSEEN_KEPT } from './ingestion.service.ts';

// What History says a run did to events listed before: the reasons as an admin reads them.
describe('run note reasons', () => {
  it('says a relisted event may have been removed, cancelled or postponed before', () => {
    // planRun relists all three alike (counts.relisted); a postponed event is not "removed or cancelled".
    expect(RELISTED).toBe('were back in the source after being removed, cancelled or postponed: listed again');
  });

  it('reads right for one entry and for three', () => {
    const read = (reason: string, count: number) => `${count} ${count === 1 ? 'entry' : 'entries'} ${runNoteReason({ reason, count })}`;
    const sentences = (reason: string) => [read(reason, 1), read(reason, 3)];
    expect(sentences(REMOVED_UNSEEN)).toEqual([
      '1 entry was no longer in the source: out of lists, each page kept for whoever saved it',
      '3 entries were no longer in the source: out of lists, each page kept for whoever saved it',
    ]);
    expect(sentences(CANCELLED_BY_SOURCE)).toEqual([
      '1 entry was cancelled by the source: out of lists, each marked cancelled for whoever saved it',
      '3 entries were cancelled by the source: out of lists, each marked cancelled for whoever saved it',
    ]);
    expect(sentences(POSTPONED_BY_SOURCE)).toEqual([
      '1 entry was postponed by the source: out of lists until it gives a new date, each marked postponed for whoever saved it',
      '3 entries were postponed by the source: out of lists until it gives a new date, each marked postponed for whoever saved it',
    ]);
    expect(sentences(CALLED_OFF_MERGED)).toEqual([
      "1 entry was cancelled or postponed by the source, but each is another source's event too: still as that source lists it, its page saying the sources disagree",
      "3 entries were cancelled or postponed by the source, but each is another source's event too: still as that source lists it, its page saying the sources disagree",
    ]);
    expect(sentences(SUDDEN_DROP_KEPT)).toEqual([
      `1 entry was missing from this run, most of what the source lists: kept listed until missing for ${SUDDEN_DROP_HOLD_HOURS} hours`,
      `3 entries were missing from this run, most of what the source lists: kept listed until missing for ${SUDDEN_DROP_HOLD_HOURS} hours`,
    ]);
    expect(sentences(REMOVED_BY_ADMIN)).toEqual(['1 entry was removed by an admin, confirmed gone from the source', '3 entries were removed by an admin, confirmed gone from the source']);
    // Every reason a run notes of listed events or of a feed's entries: no plural pronoun or noun left for one entry.
    for (const reason of [REMOVED_UNSEEN, CANCELLED_BY_SOURCE, CALLED_OFF_MERGED, MOVED_APART, MOVED_ONTO, RELINKED, HANDED_BACK, POSTPONED_BY_SOURCE, RELISTED, SUDDEN_DROP_KEPT, REMOVED_BY_ADMIN, UNSEEN_KEPT, BUDGET_NOTE, ...Object.values(SKIP)]) {
      expect(read(reason, 1)).not.toMatch(/\b(were|they|them|their|people)\b/);
    }
  });

  it('still knows a hold from a run stored with the words of before', () => {
    const before = `were missing from this run, most of what the source lists: kept listed until they have been missing for ${SUDDEN_DROP_HOLD_HOURS} hours`;
    expect(heldBy([{ kind: 'kept', reason: before, count: 5, examples: [] }])).toEqual({ count: 5, reason: 'sudden-drop' });
    expect(heldBy([{ kind: 'kept', reason: SUDDEN_DROP_KEPT, count: 5, examples: [] }])).toEqual({ count: 5, reason: 'sudden-drop' });
    expect(heldBy([{ kind: 'kept', reason: UNSEEN_KEPT, count: 2, examples: [] }])).toEqual({ count: 2, reason: 'partial-read' });
  });
});
