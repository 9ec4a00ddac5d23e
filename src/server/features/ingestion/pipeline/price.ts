// Prices as organisers write them: "$5 at the door", "Tickets $12-15", "$10 suggested donation",
// "free with RSVP", "pay what you can". Pure functions, no I/O; the parse sandbox may import them.
//
// Precision first: a wrong price on a card is worse than none. An amount counts only when it is
// tied to admission (a word such as tickets, entry, cover, door, donation, per person before or
// after it) or stands alone ("Doors 7:30; $12."), and never when it is the price of something
// else ("$1 oysters", "$2 off drinks", "raised $5,000"). Only amounts with a currency mark
// ($, USD, dollars) are read, so times ("7-9pm"), dates and years never are. "Free" counts only
// when it is said of the event ("free admission", "this event is free", "no cover", "Free."),
// not of a part of it or of some people ("kids under 12 free", "free parking", "free for members").

/** What a text says about the price of an event. */
export interface PriceReading {
  /** The lowest admission price named; null when none is. */
  price: number | null;
  /** The highest, when the text names a range or several prices; null otherwise. */
  priceMax: number | null;
  /** true: the text says the event is free; false: it names a price or a way to pay; null: it says nothing. */
  isFree: boolean | null;
  /** How the price is meant, in a few lower-case words ('at the door', 'suggested donation', 'pay what you can'...). */
  note: string | null;
}

/** Amounts above this are not admission prices (fund-raising totals, prizes, budgets). */
export const MAX_TEXT_PRICE = 10_000;
/** Texts are read up to this length: prices are stated near the top, and long pages wander. */
const MAX_CHARS = 5000;

const NONE: PriceReading = { price: null, priceMax: null, isFree: null, note: null };

// ---------------------------------------------------------------------------------------------
// Amounts

const NUM = String.raw`\d{1,3}(?:,\d{3})+(?:\.\d{1,2})?|\d+(?:\.\d{1,2})?`;
const CUR = String.raw`(?:us)?\$|\busd`;
/** Not the end of a range: a time ("$5 - 11pm") or a longer number. */
const NOT_TIME = String.raw`(?![\d:]|\s?(?:am|pm|a\.m|p\.m|h)\b)`;
/** "$12", "US$ 12", "USD 12", "$12-15", "$12 - $15", "$12 to $15"; or "12 dollars", "10-15 USD". */
const MONEY = new RegExp(
  String.raw`(?:${CUR})\s?(${NUM})(?:\s?(?:-|to)\s?(?:${CUR})?\s?(${NUM})${NOT_TIME})?` + String.raw`|\b(${NUM})(?:\s?(?:-|to)\s?(${NUM}))?\s?(?:usd|dollars?|bucks)\b`,
  'g',
);

/** A multiplier right after the amount: "$5k", "$2 million". */
const MULTIPLIER = /^\s?(?:k|m|mm|b|bn|million|billion|thousand|grand)(?![a-z])/i;
/** Words right after an amount that make it the price of something else. */
const NOT_ADMISSION_AFTER = new RegExp(
  String.raw`^\s?(?:off|discount(?:ed)?|savings?|credits?|vouchers?|gift|coupons?|prizes?|in prizes|cash prize|value|worth|rebates?|refunds?|deposit|bonus|rewards?|grants?|raised|fines?|penalty|tips?|(?:per|a|an) (?:month|year|week|hour|share|bitcoin|coin|unit|item|piece|pound|lb|kg|bottle|glass|pint|drink|beer|slice|plate|bag|pop(?:corn)?)|` +
    String.raw`for (?:the )?(?:whole |full |entire )?(?:series|season|course|term|semester|month|year)|for (?:all )?\d+ (?:sessions|classes|weeks|nights|days|workshops|lessons|visits)|packages?|bundles?|subscriptions?|memberships?)\b`,
);
/** Words right before an amount that make it something other than admission. */
const NOT_ADMISSION_BEFORE =
  /\b(?:save|saves|saving|raised?|raising|raises|win|wins|won|winning|worth|valued at|value|over|up to|upto|under|below|less than|more than|at least|prizes?(?: of)?|goal(?: of)?|budget(?: of)?|earn|earns|earned|earning|spend|spent|spending|donated|matched|match|matching|collect|collected|invest|invested|investment|grants?|scholarships?|awards?|stipend|salary|paid|refund|deposit|regularly|normally|usually|originally|reg|was|were|retail|retails|msrp|tip|fines?|jackpot|pot|purse|off|extra|additional|add|add-on)\s*[:-]?\s*$/;

/** Words that may follow an admission price before the clause goes on ("$10 per person", "$8 students"). */
const ALLOWED_NEXT = new Set(
  (
    'at per in on for each ea apiece pp plus cash only online advance adv presale pre-sale door doors cover entry entrance admission ' +
    'ticket tickets tix donation donations suggested requested recommended sliding general ga student students senior seniors adult adults guest guests teen teens ' +
    'kid kids child children youth youths member members non-member non-members nonmember nonmembers public couple couples person people ' +
    'individual individuals family families vip early earlybird early-bird regular standard day weekend full half includes include including ' +
    'incl with w before after until til till or and to usd dollars fee fees registration reg rsvp pay pwyc minimum min max total ' +
    'non-refundable nonrefundable refundable contribution tax ticketed gets a an charge charged per-person cover-charge waived'
  ).split(' '),
);

/** Admission words after an amount, with only filler between: "$5 at the door", "$10 suggested donation", "$8 students". */
const CUE_AFTER = new RegExp(
  String.raw`^\s?(?:(?:cash|only|each|ea|apiece|usd|dollars?|total|plus (?:fees?|tax)|\+ ?(?:fees?|tax)|,|-|\/)\s?)*` +
    String.raw`(?:(?:at|on) (?:the )?doors?\b|door\b|cover\b|entry\b|entrance\b|admission\b|admittance\b|tickets?\b|tix\b|donations?\b|contribution\b|suggested\b|requested\b|recommended\b|sliding\b|pay what\b|` +
    String.raw`per[ -](?:person|ticket|head|adult|child|kid|student|senior|couple|attendee|participant|player|team|class|session|night|day|entry|car|vehicle|family|guest|seat|pair|individual|household|workshop|event|show|game)\b|` +
    String.raw`(?:a|an) (?:person|head|ticket|pop|seat|night|class|session|couple|family|player|team|car)\b|` +
    String.raw`\/ ?(?:person|ticket|head|adult|child|kid|student|couple|attendee|participant|player|team|class|session|night|day|pp|car|family|guest|seat)\b|` +
    String.raw`pp\b|p\/p\b|(?:in )?advance\b|adv\b|pre-?sale\b|day of\b|on the day\b|general\b|ga\b|students?\b|seniors?\b|adults?\b|kids?\b|children\b|child\b|youths?\b|` +
    String.raw`members?\b|non-?members?\b|public\b|vip\b|early[ -]?birds?\b|regular\b|standard\b|` +
    String.raw`(?:to|for) (?:enter|attend|get in|participate|register|join|play|ride|skate|swim|watch|dance)\b|registration\b|reg\b|fees?\b|charge\b|min(?:imum)?\b|gets you in\b)`,
);

/** Admission words before an amount in the same clause: "Tickets: $25", "Door Price: $8.00", "suggested donation $10". */
const CUE_BEFORE =
  /\b(?:tickets?|tix|admission|admittance|entry|entrance|cover(?: charge)?|door(?: price| charge| fee| cover)?|(?:at|on) the door|donations?|contribution|suggested|sliding scale|pay what you (?:can|wish|want)|pwyc|cost|costs|price|prices|priced|pricing|fee|fees|registration|register|rsvp|advance|presale|pre-sale|general admission|ga|per person|charge|charged|to attend|to enter|to participate|to register|to join)\b/g;
/** Whom a price is for, right before it: "Members $10, non-members $15", "Adults: $12", "Early bird $15". */
const TIER_BEFORE = /\b(?:members?|non-?members?|students?|seniors?|adults?|kids?|children|youths?|teens?|guests?|general|ga|vip|public|individuals?|couples?|families|family|early[ -]?birds?|day of show)\s*[:-]?\s*$/;
/** A qualifier that makes an admission word about something else: "raffle tickets", "parking fee". */
const OTHER_THING =
  /\b(?:raffle|drinks?|food|parking|beer|wine|merch|kit|membership|bar|vendors?|booth|table|sponsor(?:ship)?|late|cancellation|processing|service|booking|shipping|delivery|gift|lottery|prize|bus|shuttle|transit|taxi|locker|rental|materials?|supplies|lab)\b/;

/** What may follow an amount that stands alone: "$12.", "$20 (waived for students)", "$10 before 11pm". */
const TAIL_WORDS = new Set(
  (
    'cash only each ea apiece pp p/p total usd dollar dollars + plus fee fees tax per a an at the in on door doors advance adv presale pre-sale online ' +
    'day of show cover entry entrance admission ticket tickets tix donation suggested requested recommended sliding scale general ga student ' +
    'students senior seniors adult adults kid kids child children youth member members non-member non-members public vip early bird regular ' +
    'standard person head couple family individual before after until til till midnight noon am pm to enter attend get participate or and ' +
    'for both two all everyone night evening series season weekend workshop class course session set min minimum max non-refundable ' +
    'nonrefundable waived event show per-person'
  ).split(' '),
);
/** Words after which anything may follow: "$12 including breakfast", "$5 with a free drink". */
const TAIL_OPEN = new Set(['includes', 'include', 'including', 'incl', 'incl.', 'with', 'w/']);

interface Mention {
  min: number;
  max: number;
  note: string | null;
}

const toAmount = (s: string | undefined) => (s === undefined ? undefined : Number(s.replace(/,/g, '')));
const isDigit = (c: string | undefined) => c !== undefined && c >= '0' && c <= '9';

/** Where the clause around `at` begins (looking back) or ends (looking on): . ! ? ; | • or a line break, not a decimal point. */
function clauseEdge(s: string, at: number, step: -1 | 1, limit: number): number {
  let i = at;
  for (let n = 0; n < limit; n++) {
    const j = step < 0 ? i - 1 : i;
    const c = s[j];
    if (c === undefined) return i;
    if ('!?;|•\n'.includes(c)) return i;
    if (c === '.' && !(isDigit(s[j - 1]) && isDigit(s[j + 1]))) return i;
    i += step;
  }
  return i;
}

/** Where the segment around `at` begins or ends: a clause edge, or a comma, colon, bracket, slash or spaced dash. */
function segmentEdge(s: string, at: number, step: -1 | 1, limit: number, colon: boolean): number {
  const edge = clauseEdge(s, at, step, limit);
  let i = at;
  while (i !== edge) {
    const j = step < 0 ? i - 1 : i;
    const c = s[j]!;
    if (',()[]/*'.includes(c) && !(c === ',' && isDigit(s[j - 1]) && isDigit(s[j + 1]))) return i;
    if (colon && c === ':' && !(isDigit(s[j - 1]) && isDigit(s[j + 1]))) return i;
    if (c === '-' && s[j - 1] === ' ' && s[j + 1] === ' ') return i;
    i += step;
  }
  return edge;
}

/** The note the words around an amount give it: its segment before and after, up to the amounts either side. */
function noteIn(before: string, after: string): string | null {
  const s = `${before} ${after}`;
  if (/\bpay[- ]what[- ]you[- ](?:can|wish|want|like|feel)\b|\bpwyc\b|\bpay[- ]as[- ]you[- ](?:can|wish|feel)\b/.test(s)) return 'pay what you can';
  if (/\bsliding[- ]scale\b/.test(s)) return 'sliding scale';
  if (/\bsuggested\b|\b(?:recommended|requested) (?:donation|contribution)\b|\bdonation (?:suggested|requested|recommended)\b/.test(s)) return 'suggested donation';
  if (/\bdonat(?:e|ions?)\b|\bcontribution\b/.test(s)) return 'donation';
  // "$30 door", "$5 at the door", "Door Price: $8"; not a venue's name ("Open Door Studio: $10").
  if (/^\s?(?:(?:at|on) (?:the )?)?doors?\b|\b(?:at|on) the doors?\b/.test(after) || /\b(?:at|on) the doors?\b|\bdoor (?:price|charge|fee|cover|entry|admission|tickets?)\b|\bdoor\s*:?\s*$/.test(before)) return 'at the door';
  if (/\bearly[ -]?birds?\b/.test(s)) return 'early bird';
  if (/\badvance\b|\badv\b|\bpre-?sale\b/.test(s)) return 'advance';
  if (/\b(?:with|w\/) (?:an? )?rsvp\b/.test(after)) return 'with RSVP';
  return null;
}

const DONATION_NOTES = new Set(['pay what you can', 'sliding scale', 'suggested donation', 'donation']);

/** Whether the words after a standalone amount are only what a price line says ("per person", "at the door", "before 11pm"). */
function tailIsPriceLike(tail: string): boolean {
  const words = tail.trim().split(/\s+/).filter(Boolean);
  for (const w of words) {
    const word = w.replace(/[!?.:]+$/, '');
    if (TAIL_OPEN.has(word)) return true;
    if (TAIL_WORDS.has(word) || /^\d{1,2}(?::\d\d)?(?:am|pm)?$/.test(word) || /^\d+\+$/.test(word)) continue;
    return false;
  }
  return true;
}

/** Every amount in the text that is an admission price, with its note. */
function admissionMentions(orig: string, lc: string, field: boolean): Mention[] {
  const out: Mention[] = [];
  const found = [...lc.matchAll(MONEY)];
  found.forEach((m, k) => {
    const start = m.index;
    const end = start + m[0].length;
    const min = toAmount(m[1] ?? m[3]);
    let max = toAmount(m[2] ?? m[4]);
    if (min === undefined || !Number.isFinite(min)) return;
    // Not a range: "$10-8" (a count), "$10 - 2026" (a year); a real one rarely spans more than twenty times.
    if (max !== undefined && !(max > min && (min === 0 || max <= min * 20))) max = undefined;
    if (min > MAX_TEXT_PRICE || (max ?? 0) > MAX_TEXT_PRICE) return;
    const rawAfter = orig.slice(end, end + 40);
    if (MULTIPLIER.test(rawAfter)) return;
    // Text run together from HTML ("$28.85Bookings"): a capital right after the amount starts something new.
    const glued = /^[A-Z]/.test(rawAfter);
    const prevEnd = k > 0 ? found[k - 1]!.index + found[k - 1]![0].length : 0;
    const nextStart = k + 1 < found.length ? found[k + 1]!.index : lc.length;

    const clauseFrom = clauseEdge(lc, start, -1, 120);
    const before = lc.slice(clauseFrom, start);
    let after = glued ? '' : lc.slice(end, clauseEdge(lc, end, 1, 120));
    if (NOT_ADMISSION_AFTER.test(after) || NOT_ADMISSION_BEFORE.test(before)) return;
    // Tied by a word before it, in the same clause, at most six words back, with nothing free or other in between.
    let tiedBefore = false;
    for (const cue of before.matchAll(CUE_BEFORE)) {
      const gap = before.slice(cue.index + cue[0].length);
      if (gap.trim().split(/\s+/).filter(Boolean).length > 6 || /\bfree\b/.test(gap) || OTHER_THING.test(gap)) continue;
      const lead = before.slice(Math.max(0, cue.index - 20), cue.index);
      if (OTHER_THING.test(lead.split(/\s+/).filter(Boolean).slice(-1)[0] ?? '')) continue;
      tiedBefore = true;
    }
    // The word after must be one a price line has ("per", "at", "students"), else the amount is the price of that thing;
    // after a clear admission word, a capital starts the next line of a flattened page ("Door Price: $8.00 Photo ID required").
    const next = /^\s*([a-z][a-z'/.-]*|\S)?/.exec(after)?.[1];
    if (next && /^[a-z]/.test(next) && !ALLOWED_NEXT.has(next.replace(/[.'/]+$/, ''))) {
      if (!(tiedBefore && /^\s*[A-Z]/.test(rawAfter))) return;
      after = '';
    }
    if (TIER_BEFORE.test(before)) tiedBefore = true;
    const tiedAfter = CUE_AFTER.test(after);
    const segBefore = lc.slice(segmentEdge(lc, start, -1, 120, true), start).trim();
    const segAfter = after ? lc.slice(end, segmentEdge(lc, end, 1, 120, false)) : '';
    const alone = /^(?:only|just|only just)?$/.test(segBefore) && tailIsPriceLike(segAfter);
    if (!field && !tiedBefore && !tiedAfter && !alone) return;

    // The note: the words of its own segment (a colon does not end it: "Door Price: $8"), up to the amounts either side.
    const noteBefore = lc.slice(Math.max(prevEnd, segmentEdge(lc, start, -1, 60, false)), start);
    const noteAfter = after ? lc.slice(end, Math.min(nextStart, segmentEdge(lc, end, 1, 60, false))) : '';
    out.push({ min, max: max ?? min, note: noteIn(noteBefore, noteAfter) });
  });
  return out;
}

// ---------------------------------------------------------------------------------------------
// Free

const EVENT_NOUNS =
  'admission|entry|entrance|event|events|show|shows|concert|concerts|screening|screenings|movie|movies|film|films|performance|performances|' +
  'workshop|workshops|class|classes|lecture|lectures|talk|talks|tour|tours|walk|walks|program|programs|programme|programmes|festival|fair|' +
  'party|webinar|webinars|seminar|seminars|clinic|clinics|session|sessions|lesson|lessons|exhibit|exhibition|exhibitions|open house|meetup|' +
  'meetups|storytime|story time|reading|readings|training|day|night|celebration|gathering|social|jam|hike|ride|activities|activity|fun';
const BETWEEN = String.raw`(?:(?!(?:with|for|to|before|after|until|when|if|on|and|or)\b)[a-z0-9'&-]+,? ){0,2}`;
const SUBJECTS =
  'admission|admittance|entry|entrance|attendance|cover|cover charge|tickets?|participation|cost|price|pricing|fee|registration|' +
  '(?:the |this )?(?:event|show|concert|program|programme|class|workshop|screening|tour|session|fair|festival|walk|talk|lecture|party)|' +
  'classes|workshops|sessions|these sessions|these events|the events|all events|it is|it\'s|everything';

/** Phrases that say the whole event is free; the group, when there is one, is what the note says. */
const FREE_PATTERNS: RegExp[] = [
  new RegExp(String.raw`(?<![-'])\bfree,? (?:(?:with|w\/) (?:an? )?(rsvp|reservations?|registration|sign[- ]?up|advance registration|online registration|pre-?registration))\b`, 'g'),
  new RegExp(String.raw`(?<![-'])\bfree,? ${BETWEEN}(?:${EVENT_NOUNS})\b`, 'g'),
  /(?<![-'])\bfree[- ]of[- ]charge\b|\bat no (?:cost|charge)\b|\bno (?:cost|charge) to (?:attend|participate|enter|join|you)\b/g,
  /(?<![-'])\bfree[- ]to[- ](?:attend|enter|join|participate|play|listen|watch|visit|all|everyone|the public)\b/g,
  /(?<![-'])\bfree,? (?:and|&) open to (?:the public|all|everyone|everybody|anyone)\b|\bopen to (?:the public|all|everyone|everybody|anyone),? (?:and|&) (?:is |it's )?free\b/g,
  new RegExp(String.raw`\b(?:${SUBJECTS})(?: is| are| will be| remains| stays)?(?: always| totally| completely| absolutely| entirely| 100%| still| also)?\s?[:-]?\s?free\b`, 'g'),
  /\bno (?:cover(?: charge)?|admission(?: fee| charge)?|entry fee|entrance fee|door charge|ticket (?:fee|price)|charge|fee|cost)\b(?! letters?)/g,
  /\botherwise free\b/g,
  new RegExp(String.raw`\bfor free\b(?!,? ${BETWEEN}(?:${EVENT_NOUNS})\b)`, 'g'),
  /\b(?:gratis|kostenlos|kostenfrei|gratuit|gratuite|eintritt frei|freier eintritt|entrée libre|entree libre|entrée gratuite|entrada libre|entrada gratuita|ingresso libero|ingresso gratuito|vrije toegang)\b/g,
];
/** "Free." "(FREE)" "- Free -" "Free; registration required": the word alone between punctuation. */
const FREE_ALONE = /(?:^|[.!?;:|([•,*/]|\s-\s)\s*(?:(?:it's|its|it is|totally|always|all|100%|completely|and|entry|event|admission)\s)?free!*(?=\s*(?:$|[.!?;|)\],•*:/]|\s-\s))/g;
/** People "free" may be said of, and negations: "kids' admission is free", "not a free event". */
const FREE_PEOPLE =
  /\b(?:kids?|children|child|students?|members?|ladies|women|girls|boys|men|guys|seniors?|veterans?|military|babies|toddlers|infants|under \d+|ages? \d+(?:-\d+)?|\d+ (?:and|&) under|residents?|volunteers?|staff|cardholders?|holders?|not|never|isn't|aren't|win|wins|won|raffle|giveaway|prizes?)\b|n't\b/;
/** Things a label before "free" may name instead of the event: "Parking: free". */
const FREE_THINGS =
  /\b(?:parking|wifi|wi-fi|coffee|tea|snacks?|food|refreshments|drinks?|beer|wine|lunch|dinner|breakfast|meals?|materials|supplies|childcare|shipping|delivery|returns?|coat check|bike valet)\b/;
/** The word right before "free" that makes it a perk or a condition: "for free entry", "get free admission". */
const FREE_CONDITION_WORD = /\b(?:for|get|gets|got|receive|receives|received|earn|earns|win|wins|won|includes?|including|plus|with|w\/|one|two|another|bonus|no|not|eat|eats|drink|drinks|park|ship|download|upgrade|refill|refills)\s*$/;

/** Any of the words the patterns below need: most texts have none, and are done with in one scan. */
const FREE_HINT = /free|gratis|kostenl|gratuit|no (?:cover|admission|entry|entrance|door|ticket|charge|fee|cost)|at no|libre|eintritt|entrada|ingresso|toegang/;

/** Whether what follows "free" limits it: "for members", "before 10pm", "with a ticket"; "for all ages" does not. */
function limitedAfter(rest: string): boolean {
  const m = /^\s*,?\s*(for|to|before|until|till|til|after|with|w\/|when|if)\b\s*(.*)$/.exec(rest.slice(0, 60));
  if (!m) return false;
  const [, word, tail = ''] = m;
  if (word === 'with' || word === 'w/') return !/^(?:an? )?(?:rsvp|reservations?|registration|sign[- ]?up|advance registration|online registration|pre-?registration)\b/.test(tail);
  if (word !== 'for' && word !== 'to') return true;
  if (/^(?:enter|attend|participate|join|play|listen|watch|visit|the public|everyone|everybody|anyone|all ages|families|the whole family|the community|you|attendees|participants)\b/.test(tail)) return false;
  if (/^all\b/.test(tail)) return /^all [a-z]/.test(tail) && !/^all (?:ages|and|to|who|in|at|of|are|is|welcome|attendees|participants|comers)\b/.test(tail);
  return true;
}

/** Whether the text says the whole event is free, and the note it gives ('with RSVP', 'with registration'). */
function freeIn(lc: string): { free: boolean; note: string | null } {
  if (!FREE_HINT.test(lc)) return { free: false, note: null };
  let free = false;
  let note: string | null = null;
  const lastWords = (s: string, n: number) => s.split(/\s+/).filter(Boolean).slice(-n).join(' ');
  const accept = (index: number, length: number) => {
    const lead = lc.slice(segmentEdge(lc, index, -1, 40, true), index);
    if (FREE_CONDITION_WORD.test(lead) || FREE_PEOPLE.test(lastWords(lead, 2))) return false;
    return !limitedAfter(lc.slice(index + length));
  };
  for (const re of FREE_PATTERNS) {
    for (const m of lc.matchAll(re)) {
      if (!accept(m.index, m[0].length)) continue;
      free = true;
      if (m[1]) note ??= /rsvp|reserv/.test(m[1]) ? 'with RSVP' : 'with registration';
    }
  }
  for (const m of lc.matchAll(FREE_ALONE)) {
    const at = m.index + m[0].lastIndexOf('free');
    // A label before a colon, bracket or dash says whom or what it is for: "Kids: free", "Parking - free".
    const label = /^\s*(?::|\(|\s-)/.test(m[0]) ? lastWords(lc.slice(clauseEdge(lc, m.index, -1, 40), m.index), 2) : '';
    if (label && (FREE_PEOPLE.test(label) || FREE_THINGS.test(label))) continue;
    if (!limitedAfter(lc.slice(at + 4))) free = true;
  }
  if (free && !note) {
    const rsvp = /(?<!\bno (?:pre-?)?)(?<![-\w])(rsvps?|reservations?|(?:pre-?)?registration|sign[- ]?ups?)(?: is| are)? (?:required|needed|essential|requested|necessary)\b/.exec(lc);
    if (rsvp) note = /rsvp|reserv/.test(rsvp[1]!) ? 'with RSVP' : 'with registration';
  }
  return { free, note };
}

/** A way to pay the text names without an amount: "pay what you can", "sliding scale", "by donation". */
function paymentNote(lc: string, field: boolean): string | null {
  if (/\bpay[- ]what[- ]you[- ](?:can|wish|want|like|feel)\b|\bpwyc\b|\bpay[- ]as[- ]you[- ](?:can|wish|feel)\b/.test(lc)) return 'pay what you can';
  if (/\bsliding[- ]scale\b/.test(lc)) return 'sliding scale';
  if (/\bsuggested donation\b|\bdonation (?:suggested|requested)\b|\b(?:requested|recommended) donation\b/.test(lc)) return 'suggested donation';
  if (/\bby donation\b|\bdonation[- ]based\b|\b(?:admission|entry|entrance)(?: is)? (?:by )?donation\b/.test(lc) || (field && /\bdonations?\b/.test(lc))) return 'by donation';
  return null;
}

// ---------------------------------------------------------------------------------------------

/** Lower-case of ASCII letters only, so indices match the original text. */
const asciiLower = (s: string) => s.replace(/[A-Z]+/g, (c) => c.toLowerCase());

/**
 * Reads the price of an event from its text (title and description): the lowest admission
 * price and the highest when there are several, whether it is free, and how the price is meant.
 * `field` reads a price column ("$25.00", "12-15", "Free", "$5 suggested donation"), where
 * every amount is a price and a bare number is one too.
 */
export function priceFromText(text: string | null | undefined, opts: { field?: boolean } = {}): PriceReading {
  if (!text) return NONE;
  const field = opts.field === true;
  const orig = text
    .slice(0, MAX_CHARS)
    .replace(/[\u2010-\u2015\u2212\uFE58\uFE63\uFF0D]/g, '-')
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/\u00a0/g, ' ')
    .replace(/[ \t\r\f\v]+/g, ' ')
    .trim();
  if (field) {
    // A bare number or range in a price column: "25", "12.50", "12,50", "10 - 20", "$5-$10", "€8".
    const n = String.raw`(\d{1,3}(?:,\d{3})+(?:\.\d{1,2})?|\d+(?:[.,]\d{1,2})?)`;
    const bare = new RegExp(String.raw`^(?:(?:us)?\$|usd|€|£|eur|gbp)?\s*${n}(?:\s*(?:-|to)\s*(?:(?:us)?\$|usd|€|£)?\s*${n})?\s*(?:usd|dollars?|€|£|eur|gbp)?$`, 'i').exec(orig);
    if (bare) {
      // "1,500" is thousands, "12,50" a decimal comma.
      const read = (x: string) => Number(/,\d{3}\b/.test(x) ? x.replace(/,/g, '') : x.replace(',', '.'));
      const min = read(bare[1]!);
      const max = bare[2] === undefined ? undefined : read(bare[2]);
      if (min > MAX_TEXT_PRICE || (max ?? 0) > MAX_TEXT_PRICE) return NONE;
      if (min === 0 && !(max && max > 0)) return { price: null, priceMax: null, isFree: true, note: null };
      return { price: min, priceMax: max !== undefined && max > min ? max : null, isFree: false, note: null };
    }
  }
  const lc = asciiLower(orig);
  const mentions = /\$|usd|dollar|bucks/.test(lc) ? admissionMentions(orig, lc, field) : [];
  const free = freeIn(lc);
  if (mentions.length) {
    const paid = mentions.filter((m) => !DONATION_NOTES.has(m.note ?? ''));
    const low = mentions.reduce((a, b) => (b.min < a.min ? b : a));
    const high = Math.max(...mentions.map((m) => m.max));
    // "Free entry, $5 suggested donation": free, and the donation is the note.
    if (free.free && !paid.length) return { price: null, priceMax: null, isFree: true, note: low.note };
    if (high === 0) return { price: null, priceMax: null, isFree: true, note: free.note };
    return { price: low.min, priceMax: high > low.min ? high : null, isFree: false, note: low.note };
  }
  const how = paymentNote(lc, field);
  if (free.free) return { price: null, priceMax: null, isFree: true, note: free.note ?? how };
  if (how) return { price: null, priceMax: null, isFree: false, note: how };
  return NONE;
}
