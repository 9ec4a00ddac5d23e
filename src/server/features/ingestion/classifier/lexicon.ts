// Hand-written labelling rules: per-category term lists written from the category boundaries
// (see EVALUATION.md). They weak-label unlabelled events for training and are features of the
// linear model, which learns how far to trust them. Terms match normalised word tokens
// (lower case, accents folded); `*` at the end of a word matches any continuation
// ("paint*" matches paint, painting, painters); a phrase matches consecutive words.

import type { Category } from './features.ts';

type Weights = Partial<Record<Category, number>>;

/** [terms separated by '|', weights]. Weight scale: 1 hint, 2 clear, 3 decisive. */
const RULES: Array<[string, Weights]> = [
  // Music: concerts, DJ and live-music nights, karaoke, talks on music history.
  ['concert*|konzert*|live music|livemusik|karaoke|gig|gigs|setlist|recital*|orchestra*|orkest*|philharmoni*|symphon*|choir*|chorale*|chorus|chor|ensemble', { Music: 3 }],
  ['jazz|blues|motown|reggae|hip hop|hiphop|rap|techno|house music|edm|rave|punk|metal|indie|folk music|bluegrass|klezmer|rock band|singer*|songwriter*|dj|djs|deejay|band|bands|quartet|trio|acoustic|muziek|musik|musique|musica|nightclub|club night', { Music: 2.5 }],
  ['music|musical|song*|album*|tour|live|sing|sings|singing|piano*|guitar*|violin*|cello|drum*|ukulele|percussion|beats|lyrics|opera|festival', { Music: 1 }],
  ['open mic', { Music: 1.5 }],

  // Arts: visual art, crafts, theatre, dance, comedy, film, literature, poetry, book clubs, exhibitions.
  ['art|arts|artist*|artwork*|painting*|painter*|paint|watercolo*|acrylic|oil painting|drawing*|draw|sketch*|sculpt*|pottery|ceramic*|clay|crafts|craft|crafty|knit*|crochet*|quilt*|sewing|embroider*|calligraph*|woodcarv*|printmak*|collage|origami|jewelry|jewellery|metalsmith*|mosaic|mural*|coloring|colouring', { Arts: 2.5 }],
  ['film*|movie*|cinema*|screening*|kino|theater|theatre|improv|comedy|comedian*|stand up|standup|play reading|playwright*|poetry|poet*|poem*|literature|literary|novel*|memoir*|fiction|nonfiction|book club|author*|writer*|writing|storyteller*|exhibition*|gallery|galleries|anime|manga|comic|comics|cartoon*|photograph*|photo|puppet*|ballet|ballroom|salsa|tango|bachata|line danc*|tap danc*|folk danc*|dance class|dance performance|dancers|choreograph*', { Arts: 2 }],
  ['dance|dancing|danc*|creative|design|diy|costume*|fashion|cultural|culture|open studio|museum', { Arts: 1 }],
  // Craft and studio techniques a class teaches (issue 12), from the Arts boundary (visual art, crafts).
  ['screen print*|screenprint*|silkscreen*|linocut*|lino print*|block print*|woodblock*|woodcut*|letterpress|etching*|intaglio|stained glass|fused glass|glassblow*|glass blowing|weaving|weave|loom|tapestry|macrame|bookbind*|book binding|papercut*|paper cut*|papier mache|paper mache|card making|scrapbook*|candle making|soap making|felting|needle felt*|needlepoint|cross stitch|sashiko|beading|beadwork|beaded|leathercraft|leatherwork*|wheel throwing|hand building|handbuilding|handbuilt|pinch pot*|kiln|stoneware|porcelain|raku|illustration|illustrations|illustrator*|portrait*|figure drawing|life drawing|still life|plein air|gouache|pastels|brush painting|lettering|zine|zines|textile*|fiber art*|fibre art*|amigurumi', { Arts: 2.5 }],

  // Food: cooking classes, tastings, food and beer festivals, dining meetups, farmers markets.
  ['farmers market*|greenmarket*|farmer s market|food festival|food truck*|beerfest|beer festival|wine tasting|tasting*|cooking|cook|culinary|chef*|recipe*|baking|bakery|potluck|pot luck|brunch|dinner|lunch|dining|foodie*|barbecue|bbq|cocktail*|whisk*|spirits|distill*|brewery|brewing|winery|vineyard*|cheese|chocolate|pizza|taco*|sushi|kitchen*|food|foods|cuisine|gastronom*|kochen|kochkurs', { Food: 2.5 }],
  ['beer|wine|wines|coffee|tea|eat|eating|snack*|market|restaurant*|cafe|nutrition', { Food: 1 }],
  // What cooking, baking and tasting classes are about (issue 12): dishes, doughs, drinks and
  // kitchen crafts, from the Food boundary and general knowledge (no source's titles). Ambiguous
  // words are left out or kept to phrases ("sake", "cupping", "latte" as a prefix of "latter"), and
  // so are common surnames that name venues and people (Baker, Curry, Butcher).
  ['bake|bakes|baked|bread|breads|sourdough|loaf|loaves|dough|pastry|pastries|patisser*|viennoiserie|croissant*|brioche|bagel*|pretzel*|scone*|muffin*|cupcake*|cake|cakes|cookie|cookies|biscuit*|shortbread|pie|pies|tart|tarts|galette*|macaron*|meringue*|dessert*|pudding*|confection*|candy|candies|caramel*|truffle*|ganache|fudge|pasta|pastas|noodle*|ramen|gnocchi|ravioli|dumpling*|potsticker*|dim sum|sashimi|tempura|tapas|paella|tamale*|empanada*|tortilla*|burrito*|enchilada*|mezze|falafel|hummus|charcuterie|butchery|sausage*|cheesemak*|ferment*|kimchi|sauerkraut|kombucha|pickling|pickled|canning|espresso|barista*|latte|lattes|cappuccino*|sommelier*|mixolog*|bartend*|bourbon|tequila|mezcal|cider|ciders|cooks|cooked|cookery|gourmet', { Food: 2.5 }],
  ['meal|meals|menu|supper|feast|sauce*|soup|soups|salad*|spice*|flour|oven|apron*|ingredient*|vegan|vegetarian|gluten|fruit|vegetables|veggie*|grill|grilling', { Food: 1 }],

  // Business: careers and job fairs, entrepreneurship, networking, marketing, investing, real estate, professional development.
  ['business*|entrepreneur*|startup*|start up|networking|job fair|career fair|career expo|careers|career|job seeker*|jobs|hiring|recruit*|resume*|interview skill*|marketing|seo|sales|investing|investor*|investment*|real estate|finance|financial|fintech|accounting|bookkeeping|tax prep*|small business|chamber of commerce|leadership|management|professional development|linkedin|pitch night|founder*|workforce|employment|franchise|economics|economy', { Business: 2.5 }],
  ['money|budget*|nonprofit|nonprofits|professional*|work|office|industry', { Business: 0.7 }],

  // Tech: coding, data and AI, cybersecurity, makerspaces and electronics, hackathons, computer help, space science.
  ['tech|technology|technolog*|techies|coding|code|coder*|programming|programmer*|python|javascript|js|java|typescript|software|developer*|devops|data|database*|ai|artificial intelligence|machine learning|deep learning|neural|cyber*|hackathon*|hacker*|hackerspace*|hack*|makerspace*|maker*|fablab*|fab lab|arduino|raspberry pi|electronic*|robot*|3d|3d print*|laser*|cnc|solder*|drone*|computer*|laptop*|internet|email|linux|web|app|apps|blockchain|crypto*|stem|steam|nasa|astronom*|asteroid*|planetarium|telescope*|space science|rocket*|sensor*|microcontroller*|mikrocontroller*|barcamp|open data|opendata|digital', { Tech: 2.5 }],
  ['science|engineering|physics|chemistry|gadget*|workshop', { Tech: 0.7 }],

  // Sports: ball sports, swimming, running, cycling, hiking, martial arts, general fitness classes.
  ['sport|sports|basketball|hoops|soccer|football|futbol|baseball|softball|volleyball|tennis|table tennis|ping pong|pickleball|badminton|hockey|lacrosse|cricket|rugby|golf|bowling|billiard*|pool table|darts|cornhole|shuffleboard|swim*|aqua*|lap swim|diving|running|run|runners|jog*|marathon|5k|10k|triathlon|cycling|cyclist*|bike|biking|mountainbike*|spin|spinning|climb*|bouldering|martial art*|karate|judo|jiu jitsu|jujitsu|taekwondo|kung fu|boxing|kickbox*|wrestl*|fencing|fitness|workout*|work out|exercise*|cardio|aerobic*|zumba|hiit|bootcamp|boot camp|strength|conditioning|weightlift*|weight room|weights|dumbbell*|kettlebell*|abs|ab|core|tabata|circuit|crossfit|calisthenic*|skate|skating|ski|skiing|snowboard*|surf*|kayak*|rowing|sailing|paddle*|cheer|cheerleading|gymnastic*|league|tournament*|open gym|open run|open play|athletic*|athlete*|coach|flag football|toning|tone|sculpt|burn|muscle*|glute*|stamina|agility', { Sports: 2.5 }],
  ['game|games|match|vs|v|fc|stadium|oval|gym|gymnasium|track|court|clinic|drills|drill|stretch|stretching|walk|walking|hike|hiking|team|season|pre season|preseason', { Sports: 1 }],

  // Wellness: yoga, pilates, tai chi, qigong, meditation, breathwork, mental-health and health-education talks, support groups.
  ['yoga|vinyasa|hatha|ashtanga|kundalini|yin yoga|pilates|tai chi|taichi|qigong|qi gong|chi kung|meditation*|meditate|mindfulness|breathwork|breathing|reiki|sound bath|gong bath|wellness|wellbeing|well being|mental health|anxiety|depression|stress|trauma*|therapy|therapist*|therapeutic|counsel*|psychotherap*|psycholog*|psychiatr*|health|healthy|diabetes|blood pressure|cholesterol|cancer|support group|grief|bereavement|adhd|autism|autistic|neurodivers*|dementia|alzheimer*|disorder*|self care|selfcare|healing|relaxation|relax|massage|menopause|sleep|caregiver*|addiction|recovery|sobriety|mindful|emotional|burnout|resilience|cognitive|hiv|vaccin*|nurse|doctor|medical|medicine', { Wellness: 2.5 }],
  ['stretch|stretching|gentle|balance|parenting|body', { Wellness: 0.7 }],

  // Other: history and heritage, nature and ranger walks, birding, storytime, languages, games and trivia,
  // civic, holiday, religious and administrative items, volunteering.
  ['history|historic*|historical|heritage|ancestr*|genealog*|archaeolog*|ranger*|nature|birding|bird*|wildlife|tree*|plant*|botanical|forest|ecology|environmental|geology|insect*|butterfl*|nature center|scavenger hunt|orienteering|campfire|storytime|story time|stories|storybook*|homework|tutoring|language|spanish|french|german|italian|japanese|english conversation|esl|citizenship|trivia|bingo|board game*|tabletop|chess|checkers|dominoes|domino|mahjong*|card game*|cards|video game*|puzzle*|civic|town hall|community board|council|election*|voting|vote|holiday*|christmas|weihnacht*|halloween|easter|thanksgiving|santa|hanukkah|kwanzaa|diwali|lunar new year|independence day|juneteenth|memorial day|labor day|ceremony|shrine|temple|church|worship|mass|prayer|bible|religious|commencement|deadline|registration|semester|enrollment|admissions|volunteer*|clean up|cleanup|blood drive|parade|walking tour|historic tour|membership|closed|gardening|garden|compost*', { Other: 2.5 }],
  ['lecture|museum|exhibit|community|meeting|celebration|picnic|stammtisch', { Other: 0.7 }],

  // Phrases that settle a boundary one way.
  ['dance fitness|cardio dance|aqua fit|aqua fitness|water aerobics|chair aerobics|senior fitness|body conditioning|total body|full body|strength training|circuit training|cross training|zumba|line dance fitness', { Sports: 3 }],
  ['chair yoga|senior yoga|yoga class|yoga in the park|gentle yoga|restorative yoga|meditation class', { Wellness: 3 }],
  ['nature walk|nature hike|nature exploration|ranger led|bird walk|bird watching|birdwatching', { Other: 3 }],
  ['book club|book discussion|film screening|movie night|movie club|art class|arts and crafts|craft club|writing workshop', { Arts: 3 }],
  ['music history|live jazz|dj night|dj set|open mic night', { Music: 3 }],
  ['cooking class|cooking demo|food tasting|beer tasting|wine tasting|farmers market|food festival', { Food: 3 }],
  ['cooking workshop|cooking school|cooking lesson*|cook along|cookalong|cook off|cookoff|baking class|bread baking|pastry class|culinary class|knife skills|meal prep|cake decorating|cookie decorating|cupcake decorating|latte art|coffee cupping|coffee tasting|tea tasting|cheese tasting|chocolate tasting|whiskey tasting|whisky tasting|spirits tasting|cider tasting|sake tasting|olive oil tasting|food pairing|wine pairing|beer pairing|pasta making|dumpling making|sushi making|sushi rolling|chocolate making|cheese making|jam making|bread making', { Food: 3 }],
  ['job fair|career fair|networking event|networking mixer|business networking|real estate investing|small business', { Business: 3 }],
  ['computer class|computer skills|computer help|basic computer|coding class|intro to python|hack night|maker faire', { Tech: 3 }],
  ['toddler storytime|family storytime|story time|board games', { Other: 3 }],
  ['health fair|mental health|support group|health education', { Wellness: 3 }],
  ['step class|step aerobics|dance workout', { Sports: 3 }],
  ['lego league|first lego league|robotics team|robotics club|repair cafe|repaircafe', { Tech: 3 }],
  ['comedy open mic|stand up comedy|standup comedy|improv comedy', { Arts: 3 }],
  ['game night|games night|trivia night|quiz night|pictionary|charades|scrabble|bingo night', { Other: 3 }],
  ['chant|chanting|kirtan', { Wellness: 2 }],
  // A few common German and Dutch words of the same boundaries.
  ['programmier*|elektronik*|drohne*|roboter*|werkstatt|loeten|3d druck*', { Tech: 2.5 }],
  ['kunst*|malen|malkurs|zeichn*|ausstellung*|lesung|theater*|toneel|tentoonstelling', { Arts: 2.5 }],
  ['gesundheit*|achtsamkeit|gezondheid', { Wellness: 2.5 }],
  ['fussball|voetbal|schwimm*|zwemmen|laufen|radfahren|wandern|turnen', { Sports: 2.5 }],
  // General event vocabulary of German, Dutch, French and Spanish calendars (accents folded as in
  // normaliseText: "löten" -> "loten", "Gründer" -> "grunder"), one list per category boundary;
  // written from the boundaries, not from any source's titles.
  ['konzert*|konzerte|orchester*|chorkonzert|liederabend|auftritt*|optreden|concerto|concierto*|chanson*|jam session|album release|release party|record release|line up|lineup|support act|tournee', { Music: 2.5 }],
  ['reparatur*|reparier*|repareren|reparation|repair*|elektrotechnik|informatik|technik|mikroelektronik|messdaten|datensatz*|daten|prototyp*|open source|opensource|freifunk|chaostreff|hackspace|computertreff|computerkurs|loten|lotkurs|platine*|schaltung*|programmeren|codeer*|ordinateur*|informatique|numerique', { Tech: 2.5 }],
  ['vernissage|finissage|atelier*|galerie|literatur*|buchvorstellung|theaterstuck|auffuhrung|voorstelling|voordracht|tanzkurs|tanz|tanzen|danse|spectacle|peinture|dessin|exposition|basteln|bastel*|handarbeit*|topfer*|fotografie', { Arts: 2.5 }],
  ['kochkurs*|kochabend|backen|backkurs|verkostung|weinprobe|bierprobe|degustation|proeverij|fruhstuck|ontbijt|kookworkshop|koken|eten|essen|kuche|cuisine|marche|mercado|markthalle|wochenmarkt|bauernmarkt|boerenmarkt', { Food: 2.5 }],
  ['brot|brotbacken|kuchen|konditor*|kookles|kookcursus|bakken|bakworkshop|taart*|boulanger*|cuisiner|degustaci*|cocina|cocinar|reposteria|panaderia|pasteleria|gastronomia', { Food: 2.5 }],
  ['aquarel*|acuarela*|pintura*|dibujo*|keramik*|toepfer*|stricken|hakeln|nahkurs*|schilder*|tekenen|boetseren|breien|naaien|tricot*|gravure|ceramique', { Arts: 2.5 }],
  ['grunder*|existenzgrund*|karriere*|bewerbung*|berufs*|unternehm*|wirtschaft*|netzwerktreffen|ondernemer*|sollicit*|emploi|empleo|entreprise*', { Business: 2.5 }],
  ['turnier*|klettern|tischtennis|handball|volleybal|wielrennen|fiets*|hardlopen|wedstrijd|natation|randonnee|deporte*|sportverein|lauftreff|fitnesskurs', { Sports: 2.5 }],
  ['entspannung*|meditationskurs|selbsthilfegruppe*|gesundheits*|sante|bien etre|welzijn|ontspanning|achtsam*|stressbewaltigung', { Wellness: 2.5 }],
  ['matsuri|fireworks|feuerwerk|vuurwerk|feux d artifice|pilgrim*|ritual*|shinto|buddhist*|festa|fete|feest|kermis|jahrmarkt|volksfest|stadtfest|strassenfest|fuhrung|stadtfuhrung|geschichte|heimat*|plenum|versammlung|mitgliederversammlung|sprechstunde|gottesdienst|kirche', { Other: 2.5 }],
  ['vortrag|vortrage|lezing|traditional|tradition*', { Other: 0.5 }],
];

interface Entry {
  /** Remaining words of the phrase after the first; each may end in '*'. */
  rest: string[];
  weights: Weights;
}

interface Index {
  exact: Map<string, Entry[]>;
  prefix: Map<string, Entry[]>;
}

let index: Index | undefined;

function buildIndex(): Index {
  const exact = new Map<string, Entry[]>();
  const prefix = new Map<string, Entry[]>();
  for (const [terms, weights] of RULES) {
    for (const raw of terms.split('|')) {
      const words = raw.trim().split(/\s+/).filter(Boolean);
      const first = words[0];
      if (!first) continue;
      const entry: Entry = { rest: words.slice(1), weights };
      const isPrefix = first.endsWith('*');
      const key = isPrefix ? first.slice(0, -1) : first;
      const map = isPrefix ? prefix : exact;
      const list = map.get(key);
      if (list) list.push(entry);
      else map.set(key, [entry]);
    }
  }
  return { exact, prefix };
}

function wordMatches(pattern: string, word: string | undefined): boolean {
  if (word === undefined) return false;
  return pattern.endsWith('*') ? word.startsWith(pattern.slice(0, -1)) : word === pattern;
}

export type CategoryScores = Partial<Record<Category, number>>;
export interface LexiconScores {
  title: CategoryScores;
  body: CategoryScores;
}

/** Single-word matches of a word (exact and prefix entries), memoised: event texts share most words. */
const wordMemo = new Map<string, Entry[]>();
function entriesFor(word: string): Entry[] {
  let hit = wordMemo.get(word);
  if (hit) return hit;
  const idx = (index ??= buildIndex());
  hit = [...(idx.exact.get(word) ?? [])];
  for (let n = Math.min(word.length, 16); n >= 2; n--) {
    const list = idx.prefix.get(word.slice(0, n));
    if (list) hit.push(...list);
  }
  if (wordMemo.size >= 50_000) wordMemo.clear();
  wordMemo.set(word, hit);
  return hit;
}

/** Sum of rule weights per category over one text; a rule counts once per text. */
function scoreText(words: string[], out: CategoryScores, scale: number): void {
  const seen = new Set<Weights>();
  for (let i = 0; i < words.length; i++) {
    for (const e of entriesFor(words[i]!)) {
      if (seen.has(e.weights)) continue;
      let ok = true;
      for (let j = 0; j < e.rest.length && ok; j++) ok = wordMatches(e.rest[j]!, words[i + 1 + j]);
      if (ok) seen.add(e.weights);
    }
  }
  for (const weights of seen) {
    for (const [cat, v] of Object.entries(weights) as Array<[Category, number]>) out[cat] = (out[cat] ?? 0) + v * scale;
  }
}

function words(text: string): string[] {
  return text.match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** Rule scores of an already normalised title, description and venue (see features.prepare). */
export function lexiconScores(p: { title: string; description: string; venue: string }): LexiconScores {
  const title: CategoryScores = {};
  const body: CategoryScores = {};
  scoreText(words(p.title), title, 1);
  scoreText(words(p.description), body, 1);
  scoreText(words(p.venue), body, 0.5);
  return { title, body };
}

/**
 * A weak label from the rules alone, or undefined when they are silent or split. Title
 * evidence counts 1.5 times the description's.
 */
export function ruleLabel(scores: LexiconScores, minScore = 3, minMargin = 1.5): { label: Category; score: number; margin: number } | undefined {
  const total = new Map<Category, number>();
  for (const [cat, v] of Object.entries(scores.title) as Array<[Category, number]>) total.set(cat, (total.get(cat) ?? 0) + 1.5 * v);
  for (const [cat, v] of Object.entries(scores.body) as Array<[Category, number]>) total.set(cat, (total.get(cat) ?? 0) + v);
  const ranked = [...total.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  const top = ranked[0];
  if (!top || top[1] < minScore) return undefined;
  const margin = top[1] - (ranked[1]?.[1] ?? 0);
  if (margin < minMargin) return undefined;
  return { label: top[0], score: top[1], margin };
}

const URL_PATTERN = /(?:https?:\/\/|\bwww\d*\.)\S*/gi;

/**
 * A performer listing, the way gig calendars write a concert: the description is nothing but a
 * comma-separated list of names (besides links), at least one of which is in the title, and none
 * of the names holds a category word ("Zu + The New Earth Group at Burgerweeshuis" described as
 * "Zu, The New Earth Group http://..."). Such an event is a performance; bare names say nothing
 * else. Works on the raw text: capitals mark the names.
 */
export function lineupCue(title: string, description: string): boolean {
  const hasLink = URL_PATTERN.test(description);
  URL_PATTERN.lastIndex = 0;
  const desc = description.replace(URL_PATTERN, ' ').replace(/\s+/g, ' ').trim();
  if (!desc || desc.length > 160 || /[.!?:;()]/.test(desc)) return false;
  // A description that merely repeats the title ("Water Polo") is no listing unless it links to one.
  if (!hasLink && desc.toLowerCase() === title.trim().toLowerCase()) return false;
  const names = desc.split(/\s*,\s*/).filter(Boolean);
  if (names.length === 0 || names.length > 8) return false;
  const fold = (s: string) => s.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase();
  const t = fold(title);
  let inTitle = false;
  for (const name of names) {
    const ws = name.split(' ');
    if (ws.length > 5 || !/^[\p{Lu}\p{N}]/u.test(name)) return false;
    const scores: CategoryScores = {};
    scoreText(words(fold(name)), scores, 1);
    for (const [cat, v] of Object.entries(scores) as Array<[Category, number]>) if (cat !== 'Music' && v > 0) return false;
    if (t.includes(fold(name))) inTitle = true;
  }
  return inTitle;
}

/** Weight of the lineup cue in the title scores (a clear Music word). */
export const LINEUP_WEIGHT = 2.5;

/** Rule scores of an event: the lexicon over its normalised text plus the lineup cue on the raw text. */
export function eventScores(raw: { title: string; description?: string }, p: { title: string; description: string; venue: string }): LexiconScores {
  const scores = lexiconScores(p);
  if (lineupCue(raw.title, raw.description ?? '')) scores.title.Music = (scores.title.Music ?? 0) + LINEUP_WEIGHT;
  return scores;
}
