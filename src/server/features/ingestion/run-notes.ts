// What a run could not use from a source, by reason, so that an admin sees what a feed lost:
// entries the parsers or connectors skipped (no title, no start, unreadable, exact repeats),
// items normalisation refused (already ended, beyond two years), fields left out of an item that
// is kept, and parts of a source not read at all (page limits, the recurrence budget). Counts are
// exact; each reason keeps a few examples (a title, an id, a row number). Plain data: parsers
// build it inside the sandbox's worker and it crosses back as JSON.

import type { RunNote, RunNoteKind } from '../../../contract/ingestion.ts';

export type { RunNote, RunNoteKind };

/** Examples kept per reason: enough to find the entries in the feed, not a copy of it. */
export const NOTE_EXAMPLES = 3;
const EXAMPLE_CHARS = 80;

/** The reasons the parsers and connectors give, written once so that a reason groups across them. */
export const SKIP = {
  unreadable: 'could not be read',
  noTitle: 'had no title',
  noStart: 'had no start date that could be read',
  incomplete: 'had no id, title or start date that could be read',
  repeat: 'repeated another entry exactly (kept once)',
  rule: 'had a repeat rule that cannot be expanded',
} as const;

export interface RunNotes {
  add(kind: RunNoteKind, reason: string, example?: string | null): void;
  addAll(notes: readonly RunNote[]): void;
  list(): RunNote[];
}

export function createRunNotes(): RunNotes {
  const byKey = new Map<string, RunNote>();
  const note = (kind: RunNoteKind, reason: string): RunNote => {
    const key = `${kind}\u0000${reason}`;
    let n = byKey.get(key);
    if (!n) {
      n = { kind, reason, count: 0, examples: [] };
      byKey.set(key, n);
    }
    return n;
  };
  const addExample = (n: RunNote, example: string | null | undefined) => {
    const text = example?.replace(/\s+/g, ' ').trim();
    if (!text || n.examples.length >= NOTE_EXAMPLES || n.examples.includes(text)) return;
    n.examples.push(text.length > EXAMPLE_CHARS ? `${text.slice(0, EXAMPLE_CHARS - 1)}…` : text);
  };
  return {
    add(kind, reason, example) {
      const n = note(kind, reason);
      n.count += 1;
      addExample(n, example);
    },
    addAll(notes) {
      for (const from of notes) {
        const n = note(from.kind, from.reason);
        n.count += from.count;
        for (const e of from.examples) addExample(n, e);
      }
    },
    list: () => [...byKey.values()].map((n) => ({ ...n, examples: [...n.examples] })),
  };
}

/** How many entries the notes count of one kind ('skipped': not listed because parsing could not use them). */
export const noteCount = (notes: readonly RunNote[], kind: RunNoteKind): number => notes.reduce((sum, n) => sum + (n.kind === kind ? n.count : 0), 0);
