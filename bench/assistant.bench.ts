// Admin assistant benchmark: intent accuracy of the built-in engine on the phrasing tables
// (src/server/features/assistant/intent-cases.ts): the command and its arguments must both match.
//
//   node --import tsx bench/assistant.bench.ts          (or: npm run bench assistant)
//
// Prints, per table, accuracy (target >= 95%), and for the main table per-intent precision and
// recall, parse time and the misses. Be honest about what each figure means:
// - INTENT_CASES: the first tuning table (the rules were written against it).
// - HELD_OUT_CASES: written after the first tuning as a held-out table, but the engine has since
//   been tuned while watching it too, so it is no longer held out.
// - DEV_CASES: a development table written for the second tuning; also a tuning table.
// Only a table the engine was never tuned on measures unseen phrasings: see the SEALED slot below.
import { performance } from 'node:perf_hooks';
import { CASE_KNOWN, DEV_CASES, HELD_OUT_CASES, INTENT_CASES, type IntentCase } from '../src/server/features/assistant/intent-cases.ts';
import { SEALED_CASES } from '../src/server/features/assistant/intent-cases-sealed.ts';
import { parseIntent } from '../src/server/features/assistant/intents.ts';

const TARGET = 0.95;
const pct = (v: number) => `${(100 * v).toFixed(1)}%`;
const norm = (v: unknown) => JSON.stringify(typeof v === 'string' ? v.toLowerCase() : v);

/** Whether the engine gives the case's command and the case's arguments (names case-insensitive). */
function judge(c: IntentCase) {
  const r = parseIntent(c.text, CASE_KNOWN);
  const args = 'args' in r ? r.args : null;
  const sameType = r.type === c.type;
  const sameArgs = !c.args || (!!args && Object.entries(c.args).every(([k, v]) => norm(v) === norm(args[k])));
  return { r, sameType, ok: sameType && sameArgs };
}

interface Tally { cases: number; typeRight: number; allRight: number; predicted: number }
const per = new Map<string, Tally>();
const tally = (k: string) => per.get(k) ?? (per.set(k, { cases: 0, typeRight: 0, allRight: 0, predicted: 0 }), per.get(k)!);
const misses: string[] = [];
let right = 0;
let typeRight = 0;
const t0 = performance.now();
for (const c of INTENT_CASES) {
  const { r, sameType, ok } = judge(c);
  const want = tally(String(c.type));
  want.cases += 1;
  tally(String(r.type)).predicted += 1;
  if (sameType) {
    typeRight += 1;
    want.typeRight += 1;
  }
  if (ok) {
    right += 1;
    want.allRight += 1;
  } else misses.push(`  ${JSON.stringify(c.text)}: wanted ${c.type} ${c.args ? JSON.stringify(c.args) : ''}, got ${JSON.stringify(r)}`);
}
const ms = performance.now() - t0;
const accuracy = right / INTENT_CASES.length;
console.log(`Built-in assistant engine on INTENT_CASES (tuning table), ${INTENT_CASES.length} phrasings (${per.size} intents incl. help):`);
console.log(`  intent accuracy ${pct(typeRight / INTENT_CASES.length)}; intent and arguments ${pct(accuracy)} (target ${pct(TARGET)}) ${accuracy >= TARGET ? 'PASS' : 'FAIL'}`);
console.log(`  parse time ${(ms / INTENT_CASES.length).toFixed(3)} ms per request`);
console.log('  per intent: cases, recall (intent), recall (intent+args), precision (intent)');
for (const [k, v] of [...per].sort()) {
  if (!v.cases) continue;
  console.log(`  ${k.padEnd(20)} ${String(v.cases).padStart(3)}  ${pct(v.typeRight / v.cases).padStart(6)}  ${pct(v.allRight / v.cases).padStart(6)}  ${v.predicted ? pct(v.typeRight / v.predicted).padStart(6) : '   n/a'}`);
}
if (misses.length) console.log(`Misses:\n${misses.join('\n')}`);

/** Prints one more table's figure and its misses; true when it reaches the target. */
function report(label: string, cases: readonly IntentCase[]): boolean {
  const judged = cases.map((c) => ({ c, ...judge(c) }));
  const ok = judged.filter((j) => j.ok).length;
  console.log(`${label}: ${ok}/${cases.length} = ${pct(ok / cases.length)} intent and arguments`);
  for (const j of judged.filter((x) => !x.ok)) console.log(`  ${JSON.stringify(j.c.text)}: wanted ${j.c.type} ${j.c.args ? JSON.stringify(j.c.args) : ''}, got ${JSON.stringify(j.r)}`);
  return ok / cases.length >= TARGET;
}

const heldOk = report('HELD_OUT_CASES (written after the first tuning; tuned on since, so no longer held out)', HELD_OUT_CASES);
const devOk = report('DEV_CASES (development table of the second tuning; a tuning table)', DEV_CASES);

// ---- SEALED TABLE ----------------------------------------------------------------------------------
// Written (2026-11-25) by someone who never saw the rules or the other tables, and never tuned on:
// the honest figure for phrasings the rules were not written against. Its misses are not printed,
// so that nobody tunes on them.
let sealedRight = 0;
for (const c of SEALED_CASES) {
  const r = parseIntent(c.text, CASE_KNOWN);
  const args = 'args' in r ? r.args : null;
  if (r.type === c.type && (!c.args || (!!args && Object.entries(c.args).every(([k, v]) => norm(v) === norm(args[k]))))) sealedRight += 1;
}
const sealed = sealedRight / SEALED_CASES.length;
console.log(`SEALED_CASES (never seen while tuning): ${sealedRight}/${SEALED_CASES.length} = ${pct(sealed)} intent and arguments (target ${pct(TARGET)}) ${sealed >= TARGET ? 'PASS' : 'FAIL'}`);

process.exit(accuracy >= TARGET && heldOk && devOk && sealed >= TARGET ? 0 : 1);
