import { describe, expect, it } from 'vitest';
import { ndcgAtK, precisionAtK, recallAtK } from './metrics.ts';

const rel = (...ids: string[]) => new Set(ids);

describe('ranking metrics (hand-computed)', () => {
  it('precision@k divides the hits among the first k by k', () => {
    expect(precisionAtK(['a', 'b', 'c', 'd'], rel('a', 'c', 'x'), 4)).toBe(0.5);
    expect(precisionAtK(['a', 'b'], rel('a'), 10)).toBe(0.1); // a short list still counts k slots
    expect(precisionAtK(['a'], rel(), 1)).toBe(0);
  });

  it('recall@k divides the hits by the number relevant', () => {
    expect(recallAtK(['a', 'b', 'c', 'd'], rel('a', 'c', 'x'), 4)).toBeCloseTo(2 / 3);
    expect(recallAtK(['a', 'b', 'c'], rel('c'), 2)).toBe(0);
    expect(recallAtK(['a'], rel(), 5)).toBe(0);
  });

  it('NDCG@k: one hit at rank 1 is 1; at rank 2 it is 1/log2(3)', () => {
    expect(ndcgAtK(['a', 'b'], rel('a'), 10)).toBe(1);
    expect(ndcgAtK(['b', 'a'], rel('a'), 10)).toBeCloseTo(1 / Math.log2(3)); // 0.6309
  });

  it('NDCG@3 of hits at ranks 1 and 3 with three relevant', () => {
    // DCG = 1 + 1/log2(4) = 1.5; ideal = 1 + 1/log2(3) + 1/2 = 2.1309
    expect(ndcgAtK(['a', 'x', 'b'], rel('a', 'b', 'c'), 3)).toBeCloseTo(1.5 / (1 + 1 / Math.log2(3) + 0.5), 6);
    expect(ndcgAtK(['a', 'x', 'b'], rel('a', 'b', 'c'), 3)).toBeCloseTo(0.70393, 4);
  });

  it('ignores what lies beyond k', () => {
    expect(ndcgAtK(['x', 'y', 'a'], rel('a'), 2)).toBe(0);
    expect(ndcgAtK(['a', 'b', 'c'], rel(), 3)).toBe(0);
  });
});
