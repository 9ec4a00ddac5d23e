// Offline evaluation of the recommender on a GENERATED interaction log (bench/recs/behaviour-model.ts):
// precision@10, recall@10 and NDCG@10 of our ranking against popularity and category-only baselines.
//
//   node --import tsx bench/recommendations-eval.bench.ts
import { evaluate } from './recs/evaluate.ts';

const t0 = performance.now();
const { rows, cases, events, actions, users } = evaluate();
console.log(`GENERATED log: ${users} people, ${events} events over 16 weeks, ${actions} actions; ${cases} (person, week) cases, weekly cut-offs from week 6`);
console.log('\n| Method | Precision@10 | Recall@10 | NDCG@10 |\n|---|---|---|---|');
for (const r of rows) console.log(`| ${r.name} | ${r.precision.toFixed(4)} | ${r.recall.toFixed(4)} | ${r.ndcg.toFixed(4)} |`);
const ours = rows[0]!.ndcg;
const pop = rows[1]!.ndcg;
const ratio = ours / pop;
console.log(`\nNDCG@10 ours / popularity = ${ratio.toFixed(2)}x (target >= 2x): ${ratio >= 2 ? 'met' : 'NOT met'}`);
console.log(`(${((performance.now() - t0) / 1000).toFixed(1)} s)`);
