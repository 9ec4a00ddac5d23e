// The built-in engine: reads an admin's request in plain words and maps it to one command of the
// allow-list with typed arguments. It reads ONLY the admin's own message; the names it matches
// against (sources, pending events) are looked up as data, never parsed as requests.

import type { CommandType } from '../../../contract/assistant.ts';
import { OFFERED_SOURCE_TYPES } from '../../../contract/events.ts';
import { CACHES, SERVICES, WINDOWS } from './commands.ts';

export interface KnownNames {
  sources: readonly { id: string; name: string }[];
  /** Events waiting for review, for "approve the jazz night". */
  pendingEvents: readonly { id: string; title: string }[];
  /** The city's neighbourhoods, for counts "in Hawthorne"; none known, a place named is one the count cannot apply. */
  neighbourhoods?: readonly string[];
  /** The city's own name: "in Portland" is the whole listing. */
  cityName?: string;
  /** Source types events carry besides the offered ones (Discover's source filter), for "meetup events". */
  sourceTypes?: readonly string[];
}

export type ParsedIntent =
  | { type: CommandType; args: Record<string, unknown> }
  /** Understood, but an argument is missing or matches nothing: say so, run nothing. */
  | { type: CommandType; args: null; problem: string }
  | { type: null; problem?: string };

const UUID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/i;
const EMAIL = /[a-z0-9._%+-]+@[a-z0-9.-]+\.[a-z]{2,}/i;

/** Canonical words: every synonym on the right reads as the word on the left. */
const SYNONYMS: Record<string, string[]> = {
  source: ['source', 'feed', 'scraper', 'importer', 'connector', 'ingestion', 'ingest', 'crawler', 'calendar-feed', 'rss', 'ical', 'integration', 'calendar'],
  fail: ['fail', 'failed', 'failing', 'failure', 'broke', 'broken', 'break', 'breaking', 'erroring', 'errored', 'down', 'dead', 'unhealthy', 'problem', 'trouble', 'issue', 'wrong'],
  error: ['error', 'exception', 'crash', 'crashed', 'crashing', 'stacktrace', 'stack', 'traceback', '500', '5xx', 'fault', 'bug', 'threw', 'thrown'],
  log: ['log', 'logfile', 'logged', 'logging', 'trace'],
  cache: ['cache', 'cached', 'caching'],
  clear: ['clear', 'flush', 'purge', 'wipe', 'empty', 'reset', 'invalidate', 'bust', 'drop', 'clean', 'nuke'],
  restart: ['restart', 'reboot', 'bounce', 'relaunch', 'respawn', 'cycle', 'reload', 'kick', 'restarting'],
  service: ['service', 'worker', 'scheduler', 'job', 'daemon', 'background', 'process', 'cron', 'poller'],
  repair: ['repair', 'heal', 'emergency', 'recover', 'recovery', 'rescue', 'reindex', 'requeue', 'stuck', 'migration', 'migrate', 'corrupt', 'corrupted'],
  rebuild: ['rebuild', 'regenerate', 'recreate', 're-index'],
  pending: ['pending', 'waiting', 'awaiting', 'unreviewed', 'unapproved', 'moderation', 'review', 'backlog', 'triage', 'approval', 'moderate', 'vetting', 'queued', 'queue', 'unpublished', 'unmoderated'],
  approve: ['approve', 'accept', 'publish', 'greenlight', 'allow', 'okay', 'green-light', 'greenlit'],
  reject: ['reject', 'decline', 'deny', 'refuse', 'dismiss', 'discard', 'bin', 'trash', 'nix', 'scrap', 'toss', 'veto'],
  category: ['category', 'categorie', 'genre', 'kind', 'breakdown', 'type', 'categorised', 'categorized', 'split'],
  health: ['health', 'healthy', 'healthcheck', 'uptime', 'diagnostic', 'diagnostics', 'vitals', 'alive', 'checkup', 'heartbeat', 'outage', 'sanity', 'sitrep', 'online', 'offline', 'responsive', 'responding'],
  database: ['database', 'db', 'postgres', 'postgresql', 'pglite', 'storage', 'disk', 'table', 'row'],
  point: ['point', 'score', 'xp', 'karma', 'balance'],
  run: ['run', 'fetch', 'refresh', 'pull', 'sync', 'trigger', 'scrape', 'poll', 'import', 'rerun', 're-run', 'update', 'crawl', 'execute', 'start', 'resync', 're-sync', 'refetch', 're-fetch', 'reimport', 're-import', 'rescrape', 're-scrape'],
  event: ['event', 'listing', 'submission', 'happening', 'gig'],
  image: ['image', 'picture', 'thumbnail', 'photo', 'img'],
  help: ['help', 'command', 'capabilitie', 'capability'],
};
const CANON = new Map<string, string>();
for (const [canon, words] of Object.entries(SYNONYMS)) for (const w of words) if (!CANON.has(w)) CANON.set(w, canon);

/** A plural or third-person "s" off, so "feeds", "logs" and "caches" read as their singular. */
function stem(w: string): string {
  if (w.length > 4 && w.endsWith('ies')) return `${w.slice(0, -3)}y`;
  if (w.length > 3 && w.endsWith('es') && /(ch|sh|ss|x)es$/.test(w)) return w.slice(0, -2);
  if (w.length > 3 && w.endsWith('s') && !/(ss|us|is)$/.test(w)) return w.slice(0, -1);
  return w;
}

/** Real words one letter away from a keyword: never read as a typo of it ("print" is not "point"). */
const NO_FUZZ = new Set(['print', 'paint', 'joint', 'store', 'scope', 'scare', 'shore', 'spore', 'swore', 'snore', 'scorn', 'smart', 'stark', 'stare', 'stars', 'stick', 'stock', 'alike', 'accent', 'track', 'trade', 'grace', 'flash', 'flesh', 'purse', 'lasting', 'cable', 'fable', 'spit', 'imago', 'stale', 'state', 'event', 'events', 'users', 'cycles', 'pointy', 'scored', 'source', 'sources', 'course', 'series', 'poster', 'posted', 'rebound', 'clearly', 'recent', 'repeat', 'report', 'reports', 'resort', 'respond', 'review', 'revue', 'remind', 'reload', 'errand', 'crush', 'crass', 'cache', 'catch', 'coach', 'couch', 'hello', 'there', 'where', 'three', 'these', 'those', 'month', 'today', 'about', 'above', 'after', 'again', 'reply', 'replay', 'repay', 'repaid']);
/** Keywords long enough to recognise misspelt (one letter off, or two swapped). */
const FUZZY_KEYS = [...CANON.keys()].filter((k) => k.length >= 5 && /^[a-z]+$/.test(k));

/** The canonical word for a word: as said, without a plural or -ing/-ed ending, or as a one-letter typo of a keyword. */
function canonical(w: string, inflected = true): string {
  const key = `${inflected ? '+' : '-'}${w}`;
  let c = CANONICAL_MEMO.get(key);
  if (c === undefined) {
    // Bounded: the words come from admins' messages.
    if (CANONICAL_MEMO.size > 5000) CANONICAL_MEMO.clear();
    CANONICAL_MEMO.set(key, (c = canonicalOf(w, inflected)));
  }
  return c;
}
const CANONICAL_MEMO = new Map<string, string>();

function canonicalOf(w: string, inflected: boolean): string {
  const tries = [w, w.endsWith('s') ? w.slice(0, -1) : '', w.endsWith('es') ? w.slice(0, -2) : '', w.endsWith('ies') ? `${w.slice(0, -3)}y` : ''];
  if (inflected && w.length > 5) {
    if (w.endsWith('ing')) tries.push(w.slice(0, -3), `${w.slice(0, -3)}e`);
    if (w.endsWith('ed')) tries.push(w.slice(0, -2), w.slice(0, -1));
  }
  for (const t of tries) if (t && CANON.has(t)) return CANON.get(t)!;
  const typo = fuzzyKeyword(w);
  return typo ?? stem(w);
}

/** The canonical word of the one keyword group a misspelt word is close to ("restrat", "databse", "rejct"), if any. */
function fuzzyKeyword(w: string): string | null {
  const k = nearest(w, FUZZY_KEYS);
  return k ? CANON.get(k)! : null;
}

/** The one word of a list a word is a typo of (first letter right, one letter off or two swapped, plural or not), or null. */
function nearest(w: string, list: readonly string[], group: (k: string) => string = (k) => CANON.get(k) ?? k): string | null {
  if (w.length < 4 || NO_FUZZ.has(w) || !/^[a-z]+$/.test(w)) return null;
  const found = new Map<string, string>();
  for (const form of new Set([w, stem(w)]))
    for (const k of list) if (k[0] === form[0] && Math.abs(k.length - form.length) <= 1 && editDistance(k, form) <= 1) found.set(group(k), k);
  return found.size === 1 ? [...found.values()][0]! : null;
}

/** Words the rules' patterns use besides the keywords, for spelling them right ("systm status"). */
const VOCAB = [...new Set([...FUZZY_KEYS, 'system', 'server', 'status', 'platform', 'website', 'application', 'working', 'running', 'everything', 'operational', 'reachable', 'index', 'search', 'thumbnail', 'validator', 'statistics', 'stats', 'counts', 'month', 'today', 'recent', 'latest', 'errors', 'points', 'caches', 'sources', 'feeds', 'events', 'approve', 'reject', 'category', 'categories'])].filter((k) => k.length >= 5);

/** The message with misspelt keywords put right, leaving alone words of the names it may mention. */
function spell(text: string, names: readonly string[]): string {
  return text
    .split(' ')
    .map((w) => {
      if (VOCAB.includes(w) || CANON.has(w) || CANON.has(stem(w)) || names.some((n) => close(n, w))) return w;
      const k = nearest(w, VOCAB, (x) => x);
      return k ?? w;
    })
    .join(' ');
}

/** Lower case, straight quotes, words only (emails and ids are read from the original first). */
export function normalise(text: string): string {
  return text
    .toLowerCase()
    .replace(/[’‘`]/g, "'")
    .replace(/[^a-z0-9'@.\s-]+/g, ' ')
    .replace(/'s\b/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Contractions and set phrases read as the plain words the rules know ("don't" -> "do not", "turn down" -> "reject"). */
function rewrite(text: string): string {
  return text
    .replace(/\b(do|does|did|is|are|was|were|has|have|should|would|could)n'?t\b/g, '$1 not')
    .replace(/\bcan'?t\b/g, 'can not')
    .replace(/\bwon'?t\b/g, 'will not')
    .replace(/\b(how|what|where|who)s\b/g, '$1 is')
    .replace(/\b(pls|plz|thx)\b/g, 'please')
    .replace(/\bteh\b/g, 'the')
    .replace(/\bu\b/g, 'you')
    .replace(/\bur\b/g, 'your')
    .replace(/\bkick(?:ing|ed)? off\b/g, 'run')
    .replace(/\b(?:not|never) (?:work|working|works|loading|load|loads)\b/g, 'broken')
    .replace(/\bsource code\b/g, 'code')
    .replace(/\bsign(?:ed|ing)? ?up\b/g, 'signup')
    .replace(/\bcoming up\b/g, 'upcoming')
    .replace(/\b(?:say|saying) no to\b/g, 'reject')
    .replace(/\bturn(?:ing|ed)? down\b/g, 'reject')
    .replace(/\bthumbs? down (?:to|for|on)\b/g, 'reject')
    .replace(/\bthumbs? up (?:to|for|on)\b/g, 'approve')
    .replace(/\b(?:green light|sign off on|give the go ahead (?:to|for)|go live with)\b/g, 'approve')
    .replace(/\b(?:remove|take) (.+?) (?:out of|off|from) (?:the )?(?:review |moderation |pending )?(?:queue|list|backlog)\b/g, 'reject $1')
    .replace(/^(?:ok|okay|yes|yep|sure) (the|that) /, 'approve $1 ')
    .trim();
}

function words(text: string): string[] {
  return normalise(text)
    .split(' ')
    .map((w) => w.replace(/^[.'-]+|[.'-]+$/g, ''))
    .filter(Boolean);
}

const STOP = new Set(['the', 'a', 'an', 'of', 'for', 'to', 'in', 'on', 'at', 'and', 'or', 'please', 'now', 'me', 'my', 'our', 'it', 'its', 'is', 'are', 'be', 'can', 'you', 'could', 'would', 'just', 'right', 'away', 'then', 'that', 'this', 'one', 'called', 'named', 'titled', 'event', 'events', 'listing', 'feed', 'source', 'calendar', 'ical', 'rss', 'pdx', 'go', 'ahead', 'with', 'from', 'kindly', 'hey', 'ok', 'okay']);

const sig = (ws: string[]) => ws.filter((w) => w.length >= 3 && !STOP.has(w));

/** Whether a name's word n is the said word s: the same, one a prefix of the other, one typo off, or an abbreviation ("rec"). */
function close(n: string, s: string): boolean {
  if (n === s) return true;
  if (n.length >= 4 && s.length >= 4 && (n.startsWith(s) || s.startsWith(n))) return true;
  if (n.length >= 5 && s.length >= 5 && Math.abs(n.length - s.length) <= 1) return editDistance(n, s) <= 1;
  // A short cut of a long name word ("parks & rec"), never a keyword of a request.
  if (s.length === 3 && n.length >= 6 && n.startsWith(s) && !CANON.has(s)) return true;
  return false;
}

/** Edit distance counting a swap of two neighbouring letters as one edit ("travle", "restrat"). */
function editDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  return d[a.length]![b.length]!;
}

/** How well a name is mentioned in the words: the share of the name's significant words found, 0..1. */
function mention(nameWords: string[], said: string[]): number {
  const name = sig(nameWords);
  if (!name.length) return 0;
  const hit = name.filter((n) => said.some((s) => close(n, s))).length;
  return hit / name.length;
}

/** Words that carry no name: question and status words, times, and the request's own keywords. */
const FILLER = new Set(['what', 'whats', 'how', 'hows', 'not', 'did', 'does', 'doing', 'done', 'been', 'has', 'have', 'was', 'were', 'any', 'anything', 'all', 'show', 'list', 'tell', 'give', 'get', 'status', 'state', 'latest', 'last', 'again', 'today', 'week', 'month', 'yesterday', 'overnight', 'time', 'ran', 'when', 'why', 'where', 'who', 'which', 'some', 'thing', 'stuff', 'new', 'pls', 'plz', 'yes', 'also', 'still', 'going', 'there', 'they', 'them', 'these', 'those', 'see', 'look', 'check', 'let', 'know', 'need', 'needs', 'want', 'should', 'will', 'into', 'about', 'over', 'past', 'since', 'days', 'hours', 'far', 'off', 'quick', 'quickly', 'asap', 'lately', 'recently', 'currently', 'happening', 'going']);
const content = (ws: string[]) => sig(ws).filter((w) => !FILLER.has(w) && !/^\d+$/.test(w) && !(canonical(w) in SYNONYMS));

/** The known item a phrase names best (fuzzy, by significant words), or why none. */
export function matchName<T extends { id: string }>(said: string[], items: readonly T[], nameOf: (t: T) => string, min = 0.5): { item: T } | { ambiguous: T[] } | null {
  const spoken = sig(said);
  const meant = content(said);
  const scored = items.map((item) => {
    const nw = sig(words(nameOf(item)));
    const m = mention(nw, said);
    // The words said that belong to this name; of what was said, how much: breaks ties towards the fuller match.
    const hits = spoken.filter((s) => nw.some((n) => close(n, s)));
    const back = spoken.length ? hits.length / spoken.length : 0;
    // A phrase fully inside a longer name ("the rust meetup") names it too, when it says two words or more.
    let full = hits.length >= 2 && hits.length === spoken.length ? Math.max(m, min) : m;
    // Words only this name has, making up most of what names anything ("refresh powells", "the zoo feed").
    const own = meant.filter((s) => nw.some((n) => close(n, s)) && items.every((o) => o === item || !sig(words(nameOf(o))).some((n) => close(n, s))));
    if (own.length && own.length / meant.length >= 0.66) full = Math.max(full, min);
    return { item, score: full + back * 0.01, m: full, hits: hits.join(' ') };
  });
  const ok = scored.filter((x) => x.m >= min - 0.01 && x.m > 0).sort((a, b) => b.score - a.score);
  if (!ok.length) return null;
  const best = ok[0]!;
  // Another name the very same words point at ("Portland" in two sources): ask which.
  const alike = scored.filter((x) => x.hits === best.hits && (x.score === best.score || x.item !== best.item));
  if (alike.length !== 1) return { ambiguous: alike.map((x) => x.item) };
  // Another name also clearly said, by words the best one lacks ("the jazz night and the street fair"): ask which.
  const bestWords = sig(words(nameOf(best.item)));
  const rest = meant.filter((s) => !bestWords.some((n) => close(n, s)));
  const nameWords = new Map(items.map((i) => [i, sig(words(nameOf(i)))] as const));
  const owns = (item: T, s: string) => items.every((o) => o === item || !nameWords.get(o)!.some((n) => close(n, s)));
  const others = items.filter((i) => {
    if (i === best.item) return false;
    const said = rest.filter((s) => nameWords.get(i)!.some((n) => close(n, s)));
    return said.length >= 2 || said.some((s) => owns(i, s));
  });
  return others.length ? { ambiguous: [best.item, ...others] } : { item: best.item };
}

const NUM_WORDS: Record<string, number> = { one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, twelve: 12, fourteen: 14, fifteen: 15, twenty: 20, thirty: 30, forty: 40, fifty: 50 };
const NUM = `(\\d{1,3}|${Object.keys(NUM_WORDS).join('|')})`;
const toNum = (s: string) => (/^\d+$/.test(s) ? Number(s) : (NUM_WORDS[s] ?? NaN));
const DAY_NAME = '(?:mon|tues|wednes|thurs|fri|satur|sun)day';

/** The time window a phrase names: a span in hours, days, weeks or months rounds up to today, a week or a month. */
function windowOf<F extends (typeof WINDOWS)[number] | null>(text: string, fallback: F): (typeof WINDOWS)[number] | F {
  const span = new RegExp(`\\b(?:past|last|previous|next|coming|within|in|over)\\s+(?:the\\s+)?${NUM}\\s+(hours?|days?|weeks?|months?)\\b`).exec(text);
  if (span) {
    const n = toNum(span[1]!);
    const days = n * ({ h: 1 / 24, d: 1, w: 7, m: 30 } as Record<string, number>)[span[2]![0]!]!;
    return days <= 1 ? 'today' : days <= 7 ? 'week' : 'month';
  }
  if (/\b(?:past|last|previous|next|coming) (?:the )?(?:hour|day|24 ?h)\b/.test(text)) return 'today';
  if (/\b(?:past|last|previous|next|coming) (?:the )?(?:fortnight|month)\b/.test(text)) return 'month';
  if (/\b(today|tonight|so far|24 ?h|24 hours|this morning|this afternoon|this evening|overnight|last night|since midnight|hour|hours)\b/.test(text)) return 'today';
  if (/\b(month|monthly|30 days|four weeks|4 weeks|fortnight)\b/.test(text)) return 'month';
  if (new RegExp(`\\b(week|weekly|7 days|seven days|next few days|weekend|yesterday|${DAY_NAME})\\b`).test(text)) return 'week';
  return fallback;
}

const CACHE_WORDS: Record<(typeof CACHES)[number], RegExp> = {
  events: /\b(event|events|stat|stats|statistics|facet|facets|aggregate|aggregates|count|counts|listing|listings|query|queries|totals?)\b/,
  feeds: /\b(feed|feeds|source|sources|etag|etags|http|validators?|conditional|ingestion|scraper)\b/,
};
const GENERIC_CACHE = new Set(['everything', 'the', 'all', 'every', 'app', 'application', 'server', 'whole', 'entire', 'system', 'any', 'your', 'our', 'my', 'a', 'some', 'named', 'in-memory', 'memory', 'internal', 'caches', 'cache', 'both', 'and', 'of', 'clear', 'flush', 'purge', 'reset', 'wipe', 'empty', 'invalidate']);

/** Parses the admin's message into a command of the allow-list, or null (help). */
export function parseIntent(message: string, known: KnownNames): ParsedIntent {
  const names = [...known.sources.map((x) => x.name), ...known.pendingEvents.map((x) => x.title), ...(known.neighbourhoods ?? [])].flatMap((n) => sig(words(n)));
  const text = spell(rewrite(normalise(message)), names);
  const ws = words(text);
  const canon = new Set(ws.map((w) => canonical(w)));
  const has = (...c: string[]) => c.some((x) => canon.has(x));
  const question = /^(how many|how much|what|which|when|who|is|are|any|show|list|give|get|tell|display|view|see|check|count|did|do|does|where|was|were|has|have)\b/.test(text) || message.trim().endsWith('?');
  const email = EMAIL.exec(message)?.[0];
  const uuid = UUID.exec(message)?.[0]?.toLowerCase();

  // Raw SQL or shell is never run, nor read as a request for something else.
  if (/\b(drop|truncate|alter|delete from|insert into|update \w+ set|select .+ from|grant|rm -rf|sudo|chmod|curl|wget|bash|exec)\b/.test(text) && /\b(table|from|into|set|rf|sudo|http|database|schema|\/)\b|[;/]/.test(text)) {
    return { type: null, problem: 'I do not run SQL or shell commands, only the commands below.' };
  }

  // Deleting is no command: never read as a nearby one ("delete the database" is not its status).
  if (/\b(delete|erase|destroy|format|shutdown|shut down|uninstall)\b/.test(text) && !has('cache')) return { type: null, problem: 'I cannot delete or shut down anything; the commands below are all I can run.' };
  // Setting sources up is done on the Sources page, not here; and "how do I ..." asks for help.
  if (/\b(add|create|new|set up|setup|configure|edit|rename|disable|enable|pause|unpause|register)\b (an? |the |new |another )*(source|feed|importer|scraper|integration|calendar)s?\b/.test(text) || /^how (do|can|should) (i|we)\b/.test(text)) return { type: null };

  if (/^(help|\?|commands?)$/.test(text) || /\bwhat (can|do) you (do|know|support)\b|\bwhat commands\b|\bhow do i use you\b/.test(text)) return { type: null };

  // A user's points.
  if (has('point') && !has('cache', 'restart')) {
    // Points are read here, never given or taken: that goes through the awards rules only.
    if (/\b(give|add|award|grant|deduct|subtract|take away|remove|set|reset|change|increase|decrease|bump|adjust)\b/.test(text)) return { type: null, problem: 'I can only read points, not change them.' };
    if (email) return { type: 'user_points', args: { email } };
    const name = personName(message);
    if (name) return { type: 'user_points', args: { name } };
    return { type: 'user_points', args: null, problem: 'Whose points? Give an email address or a name, e.g. "points for jane@example.org".' };
  }

  // Clearing caches (the feeds' cache is their HTTP validators).
  // Only an order clears: "cache status" or "is the cache stale?" asks, and asking changes nothing.
  if ((has('cache') && (has('clear') || /^(the )?caches?( please)?$/.test(text))) || (has('clear') && /\b(etags?|validators?|last-modified)\b/.test(text))) {
    const named = CACHES.filter((c) => CACHE_WORDS[c].test(text));
    const unknown = [...text.matchAll(/\b([a-z0-9-]+) caches?\b/g)].map((m) => m[1]!).filter((w) => !GENERIC_CACHE.has(w) && !CACHES.some((c) => CACHE_WORDS[c].test(w)));
    if (unknown.length && !named.length) return { type: 'clear_cache', args: null, problem: `There is no cache called ${unknown.map((u) => `"${u}"`).join(' or ')}. The caches I can clear: ${CACHES.join(', ')}.` };
    return { type: 'clear_cache', args: { caches: named.length ? named : [...CACHES] } };
  }

  // Restarting the background services.
  if (/\b(computer|laptop|phone|pc|mac|browser|router|wifi|modem|printer)\b/.test(text)) return { type: null };
  if (has('restart') || (/\b(stop and start|turn .* off and on)\b/.test(text) && has('service'))) {
    const services = SERVICES.filter((s) => (s === 'scheduler' ? /\b(scheduler|cron|poller|source jobs?|ingestion|feeds?)\b/.test(text) : has('image')));
    return { type: 'restart_services', args: { services: services.length ? services : [...SERVICES] } };
  }

  // Emergency repair.
  // A question about migrations is about the database; asked to apply them, it is the repair.
  if (question && /\bmigrations?\b/.test(text) && !/\b(repair|heal|emergency|recover|rescue|reindex|requeue|stuck|fix|make sure)\b/.test(text) && !/\b(re-?run|run|apply) (the |all |any )?(pending |missing )?migrations\b/.test(text)) return { type: 'database_status', args: {} };
  if (has('repair') || (has('rebuild') && /\b(index|search)\b/.test(text)) || (/\b(search|index)\b/.test(text) && has('fail')) || /\b(fix everything|fix the (system|database|app|server)|self-heal|heal)\b/.test(text) || /\b(fix|rebuild) (the |all |it all)?(search|index|everything|system|app|server|site|platform|jobs)\b/.test(text)) {
    return { type: 'emergency_repair', args: {} };
  }

  // Approving or rejecting an event.
  const action = eventAction(message);
  const phrase = action ? (quoted(message) ?? action.phrase.join(' ')) : '';
  if (action && !/^(how many|how much|count|what|which|list|show|anything|any)\b/.test(text) && (uuid || sig(words(phrase)).length > 0)) {
    const type = action.type;
    if (uuid) return { type, args: { eventId: uuid } };
    const m = matchName(words(phrase), known.pendingEvents, (e) => e.title, 0.6);
    if (!m) return { type, args: null, problem: `No event waiting for review matches ${JSON.stringify(phrase.slice(0, 80))}. Ask "show events waiting for review" for the list, or give the event id.` };
    if ('ambiguous' in m) return { type, args: null, problem: `Several events match: ${m.ambiguous.map((e) => `${JSON.stringify(e.title)} (id ${e.id})`).join(', ')}. Which one?` };
    return { type, args: { eventId: m.item.id } };
  }

  // Running a source now.
  const statusish = /\b(status|last run|last ran|when (did|was|were|is)|how (are|is)|health|doing|report|state|overview|last (updated|fetched|synced|refreshed|imported|scraped|pulled))\b/.test(text) || /^(did|has|have|was|were|which|when|how)\b/.test(text) || /\b(not|never) (run|ran|fetch|fetched|sync|synced|update|updated|refresh|refreshed|import|imported)\b/.test(text) || has('fail', 'error');
  // An order to run, at the head of a clause ("..., run it again"), wins over the status words around it.
  const runOrdered = message.split(CLAUSE).some((c) => {
    const cw = words(rewrite(normalise(c ?? ''))).filter((w) => !POLITE.has(w));
    return !!cw[0] && !cw[0].endsWith('ed') && canonical(cw[0], false) === 'run';
  });
  if (has('run') && (!statusish || runOrdered)) {
    const m = uuid ? ((s) => (s ? { item: s } : null))(known.sources.find((s) => s.id === uuid)) : matchName(ws, known.sources, (s) => s.name);
    if (m && 'item' in m) return { type: 'run_source', args: { sourceId: m.item.id } };
    if (m && 'ambiguous' in m) return { type: 'run_source', args: null, problem: `Several sources match: ${m.ambiguous.map((s) => JSON.stringify(s.name)).join(', ')}. Which one?` };
    if (has('source')) return { type: 'run_source', args: null, problem: `Which source? Known sources: ${known.sources.map((s) => JSON.stringify(s.name)).join(', ') || 'none'}.` };
  }

  // The error log, asked for as such ("error logs", "the last 20 errors").
  if (has('error') && (has('log') || errorLimit(text) !== null)) return errorLogIntent(text);

  // Sources and their failures.
  const sourceNamed = !has('run') || statusish ? matchName(ws, known.sources, (s) => s.name, 0.67) : null;
  if ((has('source') && !has('category')) || (has('run') && has('fail')) || (sourceNamed && 'item' in sourceNamed && (statusish || question))) {
    const failedOnly = has('fail', 'error');
    const window = /\b(all time|all-time|ever|overall|forever|since (the )?(start|beginning)|history)\b/.test(text) ? 'all' : windowOf(text, 'today');
    const args: Record<string, unknown> = { window, failedOnly };
    if (sourceNamed && 'item' in sourceNamed) args.sourceId = sourceNamed.item.id;
    return { type: 'source_status', args };
  }

  // The error log.
  if (has('error') || (has('log') && !has('source')) || /\bwhat went wrong\b/.test(text)) {
    return errorLogIntent(text);
  }

  // The review queue.
  if (has('pending') || /\b(new|incoming|fresh|latest|recent) submissions?\b/.test(text) || /\breported (stories|story|posts|content)\b|\bflagged\b/.test(text) || /^(anything|something|what|any|is there|are there)\b.*\bto (approve|review|moderate|vet)\b/.test(text) || /\bneed(s|ing)? (to )?(be )?(review|approv|check|look)/.test(text) || /\bnot (yet )?(approved|reviewed)\b/.test(text)) {
    const n = /\b(?:first|newest|latest|top|last|all|show|list)?\s*(\d{1,3})\b(?!\s*(?:hours?|days?|weeks?|months?|minutes?|mins?)\b)/.exec(text)?.[1];
    return { type: 'pending_review', args: { limit: n ? Math.min(100, Math.max(1, Number(n))) : 10 } };
  }

  // Events by category.
  if (has('category') || /\b(per|by|each) (category|type|genre|kind)\b/.test(text) || /\b(music|food|business|sports|arts|tech|wellness)\b.*\b(vs|versus|compared)\b/.test(text) || (/\b(vs|versus|compared (to|with))\b/.test(text) && /\b(how many|count|counts|number|events?|shows?)\b/.test(text))) {
    return eventCount(message, windowOf(text, 'week'), known);
  }

  if (has('database')) return { type: 'database_status', args: {} };

  if (has('health') || HEALTH_SAID.test(text) || HEALTH_ASKED.test(text) || /^(how (is|are) (the |our )?)(system|systems|server|servers|app|platform|site|website|api|things|everything|we)\b/.test(text) || /^(status|system status|ping|overview|status (report|update|check))( please)?$/.test(text)) {
    return { type: 'health_check', args: {} };
  }

  // Events counted, as the help offers ("events this week", "how many events are there?"):
  // those starting in the window named, or, with none named, all listed now.
  // What Discover shows is the listing counted ("does Discover show this week", "how many are listed in Discover").
  const discover = /\bdiscover\b/.test(text) && /\b(show|shows|showing|shown|list|lists|listing|listed|display|displays|displaying|how many|count|number|total)\b/.test(text);
  if ((has('event') || /\bconcerts?\b/.test(text) || discover) && !has('fail', 'error')) {
    const counted = discover || /\b(how many|count|counts|number of|total|totals|tally)\b/.test(text);
    if (UPCOMING_WINDOW.test(text) || (counted && windowOf(text, null))) return eventCount(message, windowOf(text, 'week'), known);
    if (counted) return eventCount(message, 'all', known);
  }

  // A failure asked about with nothing else named: the error log says what broke.
  if (has('fail') && !/\b(down|up|offline)\b/.test(text) && (question || ws.length <= 4)) return errorLogIntent(text);

  return { type: null };
}

/** Category words, as Discover's categories: only words that clearly name one ("concerts" are Music). */
const CATEGORY_WORDS: readonly [string, RegExp][] = [
  ['Music', /\b(music|musical|concerts?)\b/],
  ['Food', /\b(food|foodie)\b/],
  ['Business', /\bbusiness(es)?\b/],
  ['Sports', /\bsports?\b/],
  ['Arts', /\barts?\b/],
  ['Tech', /\b(tech|technology)\b/],
  ['Wellness', /\bwellness\b/],
  ['Other', /\b(category other|other category|uncategori[sz]ed)\b/],
];

/** Words that may stand before "events" without narrowing them beyond what a count applies. */
const EVENT_QUALIFIERS = new Set(['how', 'many', 'of', 'the', 'all', 'any', 'listed', 'upcoming', 'total', 'our', 'approved', 'live', 'public', 'those', 'these', 'number', 'what', 'which', 'kind', 'kinds', 'type', 'types', 'sort', 'sorts', 'per', 'count', 'counts', 'week', 'weeks', 'month', 'today', 'tonight', 'weekend', 'this', 'next', 'coming', 'current', 'scheduled', 'future', 'in', 'on', 'for', 'by', 'vs', 'versus', 'and', 'or', 'split', 'are', 'is', 'there', 'many', 'more', 'fewer', 'much', 'different', 'distinct', 'individual', 'separate', 'visible', 'shown', 'open', 'such', 'tally', 'totals', 'show', 'list', 'give', 'me', 'breakdown', 'category', 'categories', 'genre', 'genres', 'split', 'across', 'with', 'do', 'we', 'have', 'you', 'can', 'your', 'my', 'a', 'an', 'to', 'at', 'from', 'city', 'town', 'portland', 'days', 'hours', 'coming', 'it', 'up', 'so', 'far', 'now', 'currently', 'please', 'pls', 'about', 'roughly', 'approximately', 'exactly', 'new', 'discover', 'does', 'did', 'will', 'would']);

/** Words a place phrase ("in Hawthorne") ends at: times, verbs and the count's own words. */
const PLACE_END = new Set(['this', 'next', 'coming', 'upcoming', 'today', 'tonight', 'tomorrow', 'week', 'weekend', 'month', 'past', 'last', 'for', 'by', 'per', 'on', 'are', 'is', 'were', 'was', 'do', 'does', 'did', 'we', 'have', 'has', 'there', 'right', 'now', 'so', 'total', 'all', 'each', 'every', 'category', 'categories', 'and', 'or', 'vs', 'versus', 'compared', 'with', 'from', 'starting', 'currently', 'listed', 'events', 'event', 'please', 'pls', 'over', 'during', 'within', 'between', 'until', 'till', 'since', 'before', 'after', 'at', 'in', 'near', 'the', 'moment', 'general', 'days', 'hours', 'weeks', 'months', 'a', 'one', 'two', 'seven', 'thirty', 'than', 'that', 'which', 'who', 'right']);
/**
 * Words that name the whole listing, not a place in it: the city, the app and its lists ("in the
 * system", "in our city", "in the whole city", "listed in Discover"). A place phrase made only of
 * these (and the city's own name) counts everything listed.
 */
const WHOLE_LISTING = new Set(['town', 'city', 'area', 'region', 'total', 'general', 'moment', 'whole', 'entire', 'our', 'your', 'this', 'the', 'public', 'main', 'system', 'app', 'application', 'site', 'website', 'platform', 'townbeat', 'database', 'db', 'discover', 'page', 'tab', 'view', 'list', 'lists', 'listing', 'listings', 'calendar', 'catalog', 'catalogue', 'directory']);
/** Words after a place's name that still name the place ("the Hawthorne district", "the Sellwood area"). */
const PLACE_NOUN = '(?:district|area|neighbou?rhood|quarter)';
/** Counts split by place, which the count does not do ("per neighbourhood", "in each district", "which area has the most"). */
const BY_PLACE = new RegExp(`\\b(?:per|by|each|every|across|which|what|different|various|individual|separate|split|broken down|breakdown|group(?:ed)?) (?:the |of |of the |our |its )?(?:neighbou?rhoods?|districts?|areas?)\\b|\\b(?:neighbou?rhoods|districts)\\b|\\b(?:neighbou?rhood|district|area) (?:breakdown|split|by)\\b`);
/** A year or a span of one: no count window applies it (today, this week, this month, all listed now). */
const YEAR = /\b(?:(?:in|for|during|of|throughout|over) )?(?:the )?((?:this|next|last|past|coming|whole|entire) year|(?:19|20)\d\d)\b/g;

const squash = (s: string) => normalise(s).replace(/[^a-z0-9]+/g, ' ').trim();
const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A count of listed events with the filters the message names: neighbourhoods of the city,
 * categories and source types. A place, source or kind of event it names that no filter can
 * apply is said back, with nothing counted (a count of something else would read as the answer).
 */
function eventCount(message: string, window: (typeof WINDOWS)[number] | 'all', known: KnownNames): ParsedIntent {
  let rest = ` ${squash(message)} `;
  // What a filter took is left out of what is read next; a category word leaves "events" behind
  // so that "outdoor concerts" still reads as a kind of event.
  const take = (re: RegExp, leave = ' ') => {
    const hit = re.test(rest);
    if (hit) rest = rest.replace(new RegExp(re.source, 'g'), leave).replace(/\s+/g, ' ');
    return hit;
  };
  const neighbourhoods: string[] = [];
  const cannot: string[] = [];
  const city = known.neighbourhoods ?? [];
  // One source named: counts go by source type, as Discover filters, not by one source.
  for (const src of known.sources) {
    const nw = sig(words(src.name)).filter((w) => !STOP.has(w));
    if (nw.length >= 2 && nw.every((n) => rest.split(' ').some((w) => close(n, w)))) {
      const types = [...new Set([...OFFERED_SOURCE_TYPES, ...(known.sourceTypes ?? [])])];
      return { type: 'events_by_category', args: null, problem: `I can count events by source type (${types.join(', ')}), as Discover filters them, but not those of one source such as ${JSON.stringify(src.name)}. Ask "source status" for its runs.` };
    }
  }
  // Neighbourhoods named in full, in any case ("in hawthorne", "Pearl District", "St. John's"),
  // with a "district" or "area" after the name ("the Hawthorne district").
  for (const name of city) {
    const w = squash(name).split(' ');
    const last = w.pop()!.replace(/s$/, '');
    if (take(new RegExp(`\\b${[...w.map(escapeRe), `${escapeRe(last)}s?`].join(' ')}(?: ${PLACE_NOUN}s?)?\\b`))) neighbourhoods.push(name);
  }
  // All of them together is the whole listing ("across all neighbourhoods").
  take(new RegExp(`\\b(?:(?:across|in|over|throughout|for) )?all (?:the |of the |our )?${PLACE_NOUN}s\\b`));
  // Counts split by neighbourhood: not what the count does, and a city-wide total would read as that answer.
  if (BY_PLACE.test(rest)) {
    const named = city.length ? ` (${city.join(', ')})` : '';
    return {
      type: 'events_by_category',
      args: null,
      problem: `I don't break counts down by neighbourhood: I count one neighbourhood or several together${named}, or the whole city. Ask for one at a time, e.g. "how many events in ${city[0] ?? 'Downtown'} this week".`,
    };
  }
  // A year: said back, never ignored (a count of all listed would read as the year's).
  for (const m of rest.matchAll(YEAR)) cannot.push(m[1]!);
  rest = rest.replace(YEAR, ' ');
  // A place named "X district" or "X area" that is no neighbourhood above: read before the
  // categories, so "the arts district" is said back, not counted as Arts events city-wide.
  for (const m of rest.matchAll(new RegExp(`\\b(?:in|at|near|around|inside) ((?:[a-z0-9-]+ ){1,3}?)(${PLACE_NOUN})s?\\b`, 'g'))) {
    const phrase = m[1]!.trim().split(' ');
    const place = placeOf(phrase, city, known.cityName);
    if (place === 'whole') continue;
    if (place) neighbourhoods.push(place);
    else cannot.push(`${phrase.filter((w) => w !== 'the').join(' ')} ${m[2]}`);
    rest = rest.replace(m[0], ' ');
  }
  const categories = CATEGORY_WORDS.filter(([, re]) => take(re, ' events ')).map(([c]) => c);
  const types = [...new Set([...OFFERED_SOURCE_TYPES, ...(known.sourceTypes ?? [])])];
  const sourceTypes = types.filter((t) => take(new RegExp(`\\b(?:(?:from|on|via|through) (?:the )?${escapeRe(squash(t))}|${escapeRe(squash(t))}(?= (?:events?|listings?|sources?|feeds?)\\b))\\b`)));
  // A place said after "in", "at" or "near" that is no neighbourhood named above: part of one
  // ("the Pearl"), one misspelt ("hawthrone"), the whole city, or a place the count cannot apply.
  for (const m of rest.matchAll(/\b(?:in|at|near|around|inside)\s+((?:[a-z0-9]+\s*)+)/g)) {
    const ws = m[1]!.trim().split(' ').filter(Boolean);
    const end = ws.findIndex((w, i) => PLACE_END.has(w) && !(i === 0 && w === 'the'));
    const phrase = (end === -1 ? ws : ws.slice(0, end)).filter((w, i) => !(i === 0 && w === 'the'));
    if (!phrase.length || /^\d/.test(phrase[0]!)) continue;
    const place = placeOf(phrase, city, known.cityName);
    if (place === 'whole') continue;
    if (place) neighbourhoods.push(place);
    else cannot.push(phrase.join(' '));
  }
  // A kind of event no filter applies to ("free events", "outdoor concerts").
  const kinds = [...rest.matchAll(/\b([a-z][a-z-]*) (?:events?|shows?|listings?)\b/g)].map((m) => m[1]!).filter((w) => !EVENT_QUALIFIERS.has(w) && !/^\d/.test(w) && !(canonical(w) in SYNONYMS));
  if (cannot.length || kinds.length) {
    const bad = [...cannot.map((c) => `"${c}"`), ...kinds.map((k) => `"${k}" events`)];
    const places = city.length ? `the neighbourhoods of ${known.cityName ?? 'the city'} (${city.join(', ')})` : 'neighbourhoods';
    // What was read is said too, so the admin knows what to ask for instead.
    const read = [...categories, ...new Set(neighbourhoods), ...sourceTypes.map((t) => `${t} sources`)];
    const understood = read.length ? ` Without ${bad.join(' or ')}, I can count by ${either(read)}.` : '';
    return {
      type: 'events_by_category',
      args: null,
      problem: `I can't count by ${bad.join(' or ')}: I count listed events by ${places}, by category (Music, Food, Business, Sports, Arts, Tech, Wellness, Other) and by source type (${types.join(', ')}), today, this week, this month or all listed now.${understood}`,
    };
  }
  const args: Record<string, unknown> = { window };
  if (categories.length) args.categories = categories;
  if (neighbourhoods.length) args.neighbourhoods = [...new Set(neighbourhoods)];
  if (sourceTypes.length) args.sourceTypes = sourceTypes;
  return { type: 'events_by_category', args };
}

/**
 * The place a phrase after "in" names: the whole listing ("the system", "our city", "Portland"),
 * one of the city's neighbourhoods (part of its name, one typo, a "district" after it), or null.
 */
function placeOf(phrase: readonly string[], city: readonly string[], cityName?: string): string | 'whole' | null {
  const cityWords = cityName ? squash(cityName).split(' ') : [];
  if (phrase.every((w) => WHOLE_LISTING.has(w) || cityWords.includes(w))) return 'whole';
  const bare = phrase.filter((w, i) => !(i === 0 && w === 'the') && !(i === phrase.length - 1 && i > 0 && new RegExp(`^${PLACE_NOUN}$`).test(w)));
  const said = bare.join(' ');
  const found = city.filter((name) => {
    const nw = squash(name).split(' ');
    return said === nw.join(' ') || (bare.length === 1 && nw.length > 1 && said === nw[0] && said.length >= 4) || (bare.length === nw.length && bare.every((p, i) => close(nw[i]!, p)));
  });
  return found.length === 1 ? found[0]! : null;
}

const either = (xs: readonly string[]) => (xs.length <= 1 ? (xs[0] ?? '') : `${xs.slice(0, -1).join(', ')} or ${xs.at(-1)}`);

/** A window ahead, as the events count reads it ("today", "this week", "the next 30 days"). */
const UPCOMING_WINDOW = /\b(today|tonight|this (week|weekend|month)|next (week|month|7 days|seven days|30 days|thirty days))\b/;

const HEALTH_SUBJECT = '(scheduler|workers?|background jobs|jobs|services|system|systems|server|servers|app|application|platform|site|website|api|everything|things|we|townbeat|backend|instance)';
const HEALTH_STATE = '(memory|cpu|load|ram|green|going|issues?|problems?|trouble|wrong|broken|slow|sluggish|laggy|lagging|unresponsive|status|ok|okay|fine|running|working|good|alright|all right|check|doing|operational|holding up|healthy|up|down|online|offline|alive|responding|responsive|reachable|sane|sanity)';
const HEALTH_SAID = new RegExp(`\\b${HEALTH_SUBJECT}\\b.*\\b${HEALTH_STATE}\\b`);
const HEALTH_ASKED = new RegExp(`\\b${HEALTH_STATE}\\b.*\\b${HEALTH_SUBJECT}\\b`);

/** A number of errors asked for ("last 5", "top twenty", "the 3 most recent errors"), not a span of time. */
function errorLimit(text: string): number | null {
  const m =
    new RegExp(`\\b(?:last|latest|recent|top|newest|first)\\s+${NUM}\\b(?!\\s*(?:hours?|days?|weeks?|months?|minutes?|mins?)\\b)`).exec(text) ??
    new RegExp(`\\b${NUM}\\s+(?:most recent|latest|last|newest|recent|new)?\\s*(?:[a-z]+\\s+)?(?:errors?|exceptions?|crash(?:es)?|failures?|entries|lines|log entries)\\b`).exec(text);
  const n = m ? toNum(m[1]!) : NaN;
  return Number.isFinite(n) ? Math.min(50, Math.max(1, n)) : null;
}

/** Where the errors asked for come from, in the error log's own origins. */
function errorOrigin(text: string): string | undefined {
  if (/\b(images?|image worker|thumbnails?|photos?|pictures?)\b/.test(text)) return 'images';
  if (/\b(scheduler|cron|scheduling)\b/.test(text)) return 'scheduler';
  if (/\b(http|https|5\d\d|5\d\ds|5xx|requests?|api|web ?server|routes?|endpoints?)\b/.test(text)) return 'http';
  if (/\b(ingestion|ingest|importers?|importing|imports?|feeds?|sources?|scrapers?)\b/.test(text)) return 'ingestion';
  return undefined;
}

/** Words before an order that do not change it ("please run", "can you run"). */
const POLITE = new Set(['please', 'can', 'could', 'would', 'will', 'you', 'just', 'now', 'then', 'so', 'and', 'ok', 'okay', 'also', 'go', 'ahead', 'kindly', 'hey', 'quickly', 'quick', 'pls']);

/** Clause breaks: a verb's object ends there ("decline the rust meetup, duplicate"). */
const CLAUSE = /[,;!?]+|\s[-\u2013\u2014]+\s|\.(?:\s+|$)|\b(?:because|since|as it|it is|it's|its|they are|thanks|thank you)\b/i;

interface EventAction {
  type: 'approve_event' | 'reject_event';
  phrase: string[];
}

/** The approve or reject asked for and the words after it naming the event: "don't publish X" rejects, "don't reject, approve X" approves. */
function eventAction(message: string): EventAction | null {
  let order: EventAction | null = null;
  let negated: EventAction | null = null;
  for (const clause of message.split(CLAUSE)) {
    const cw = words(rewrite(normalise(clause ?? '')));
    for (const [i, w] of cw.entries()) {
      // "approved" reports what was done; only the verb itself orders it.
      if (w.endsWith('ed')) continue;
      const c = canonical(w, false);
      if (c !== 'approve' && c !== 'reject') continue;
      const phrase = cw.slice(i + 1);
      const not = cw.slice(Math.max(0, i - 2), i).some((x) => x === 'not' || x === 'never' || x === 'no');
      if (!not) {
        if (!order || (!sig(order.phrase).length && sig(phrase).length)) order = { type: c === 'approve' ? 'approve_event' : 'reject_event', phrase };
      } else if (c === 'approve' && !negated) negated = { type: 'reject_event', phrase };
    }
  }
  const chosen = order ?? negated;
  // The event named before the verb ("the rust meetup - approve it", "don't approve the fair, reject it"): every word but the verbs.
  if (chosen && !sig(chosen.phrase).filter((w) => !FILLER.has(w)).length) {
    chosen.phrase = words(rewrite(normalise(message))).filter((w) => !['approve', 'reject'].includes(canonical(w, false)) && !['not', 'never', 'no'].includes(w));
  }
  return chosen;
}

function errorLogIntent(text: string): ParsedIntent {
  const origin = errorOrigin(text);
  return { type: 'error_logs', args: { limit: errorLimit(text) ?? 10, ...(origin ? { origin } : {}) } };
}

/** The first "quoted" or “quoted” phrase. */
function quoted(s: string): string | null {
  // A quote opens after a space or the start and closes before one: the apostrophe of "don't" is no quote.
  const m = /(?:^|[\s(:])["“‘']([^"”’']{2,200})["”’'](?=$|[\s.,;:!?)])/.exec(s);
  return m ? m[1]! : null;
}

/** A person's name as admins write it: "points for Maria Lopez", "Does Sam Lee have", "Jordan's score". */
function personName(message: string): string | null {
  // A second name word: capitalised, or in lower case when the name ends there ("points for maria lopez").
  const more = String.raw`(?:\s+(?:[A-Z][A-Za-z'-]+|[a-z][a-z'-]+(?=\s*(?:$|[?.!,]|\s+(?:have|has|got|earned|gotten|collected|accumulated)\b))))?`;
  const first = String.raw`[A-Za-z][A-Za-z'-]+`;
  const patterns = [
    new RegExp(String.raw`\b(?:show|check|get|see|view|find|look up|what(?:'s| is|s)?)\s+(?:me\s+)?([A-Za-z][A-Za-z-]+)[’']s\s+(?:points?|score|xp|karma|balance|total)`),
    new RegExp(String.raw`\b(?:points?|score|xp|karma|balance)(?:\s+[a-z]+){0,2}?\s+(?:for|of|does|did|has)\s+(?:user\s+)?(${first}${more})`),
    new RegExp(String.raw`\b(?:[Dd]oes|[Dd]id|[Hh]as)\s+(?:user\s+)?(${first}${more})\s+(?:have|got|earn|earned|collect|collected|gotten|accumulate|accumulated)`),
    /\b([A-Z][A-Za-z-]+(?:\s+[A-Z][A-Za-z-]+)?)[’']s\s+(?:points?|score|xp|karma|balance|total)/,
    new RegExp(String.raw`\b(?:points?|score|xp|karma)\s+(?:user\s+)?(${first}${more})\s+(?:has|have|got|earned|collected)\b`),
    /(?:^|\s)([A-Za-z][A-Za-z-]+)[’']s\s+(?:points?|score|xp|karma|balance|total)/,
    new RegExp(String.raw`\b(?:user|member|player)\s+(${first}${more})`),
    /\b(?:is|has)\s+([A-Z][A-Za-z'-]+(?:\s+[A-Z][A-Za-z'-]+)?)\s+(?:got|on|at)\b/,
  ];
  const bad = new Set(['the', 'a', 'user', 'this', 'that', 'my', 'our', 'he', 'she', 'they', 'it', 'me', 'is', 'does', 'points', 'have', 'what', 'who', 'there', 'here', 'let', 'today', 'week', 'month', 'everyone', 'everybody', 'somebody', 'someone']);
  const trailing = /\s+(please|pls|now|today|thanks|right|then|again|total|so|currently|overall|earned|got|have)$/i;
  for (const p of patterns) {
    const m = p.exec(message.replace(/["“”]|(?<=^|\s)'|'(?=\s|$)/g, ''));
    const name = m?.[1]?.trim().replace(trailing, '');
    if (name && !bad.has(name.toLowerCase())) return name;
  }
  return null;
}
