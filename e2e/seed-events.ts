import type { EventInputRaw } from '../src/contract/events.ts';
import { ADMIN } from './fixtures.ts';

/** Titles the browser tests search for; each appears exactly once in the seed. */
export const SEED = {
  zebra: 'Zebra Jazz Quartet',
  quokka: 'Quokka Pottery Night',
  /** How many events seedEvents creates. */
  count: 30,
} as const;

const HOUR = 3600_000;
const DAY = 24 * HOUR;

const PLACES = [
  { neighbourhood: 'Downtown', venue: 'Pioneer Courthouse Square', address: '701 SW 6th Ave', lat: 45.5189, lng: -122.6793 },
  { neighbourhood: 'Pearl District', venue: 'Jamison Square', address: '810 NW 11th Ave', lat: 45.5287, lng: -122.6819 },
  { neighbourhood: 'Old Town', venue: 'Ankeny Alley Hall', address: '28 SW Ankeny St', lat: 45.5226, lng: -122.6712 },
  { neighbourhood: 'Alberta Arts', venue: 'Alberta Rose Theatre', address: '3000 NE Alberta St', lat: 45.559, lng: -122.6357 },
  { neighbourhood: 'Mississippi', venue: 'Mississippi Studios', address: '3939 N Mississippi Ave', lat: 45.5517, lng: -122.6757 },
  { neighbourhood: 'Hawthorne', venue: 'Hawthorne Hall', address: '3500 SE Hawthorne Blvd', lat: 45.512, lng: -122.6262 },
  { neighbourhood: 'Buckman', venue: 'Buckman Community Room', address: '320 SE 16th Ave', lat: 45.5195, lng: -122.6502 },
  { neighbourhood: 'Kerns', venue: 'Kerns Commons', address: '2400 E Burnside St', lat: 45.5229, lng: -122.6416 },
  { neighbourhood: 'Sellwood', venue: 'Sellwood Riverfront Park', address: 'SE Spokane St', lat: 45.4672, lng: -122.6589 },
  { neighbourhood: 'Nob Hill', venue: 'Nob Hill Hall', address: '2300 NW Everett St', lat: 45.5256, lng: -122.6985 },
];

const EVENTS: { title: string; category: string; description: string }[] = [
  { title: SEED.zebra, category: 'Music', description: 'A four-piece playing hard bop standards.\n\nTwo sets, doors at 6.' },
  { title: 'Riverside Folk Session', category: 'Music', description: 'Bring an instrument or just listen.' },
  { title: 'Basement Vinyl Night', category: 'Music', description: 'DJs spin soul and funk records.' },
  { title: 'Community Choir Open Rehearsal', category: 'Music', description: 'All voices welcome.' },
  { title: 'Indie Showcase at the Alley', category: 'Music', description: 'Three local bands.' },
  { title: 'Sunday Brass in the Park', category: 'Music', description: 'An afternoon brass band concert.' },
  { title: 'Late Night Blues Jam', category: 'Music', description: 'House band and open stage.' },
  { title: 'Chamber Strings by Candlelight', category: 'Music', description: 'A string quartet plays Haydn.' },
  { title: SEED.quokka, category: 'Arts', description: 'Throw a pot, glaze a mug, meet your neighbours.' },
  { title: 'First Thursday Gallery Walk', category: 'Arts', description: 'Galleries open late.' },
  { title: 'Mural Painting Workshop', category: 'Arts', description: 'Learn large-format painting.' },
  { title: 'Poetry Open Mic', category: 'Arts', description: 'Five minutes each, sign up at the door.' },
  { title: 'Printmaking for Beginners', category: 'Arts', description: 'Linocut basics.' },
  { title: 'Street Photography Walk', category: 'Arts', description: 'A guided walk with a photographer.' },
  { title: 'Night Market Dumpling Crawl', category: 'Food', description: 'Six stalls, one ticket.' },
  { title: 'Farmers Market Cooking Demo', category: 'Food', description: 'Seasonal cooking with a local chef.' },
  { title: 'Sourdough Basics Class', category: 'Food', description: 'Take home a starter.' },
  { title: 'Coffee Cupping Morning', category: 'Food', description: 'Taste five single origins.' },
  { title: 'Neighbourhood Potluck', category: 'Food', description: 'Bring a dish to share.' },
  { title: 'Small Business Breakfast', category: 'Business', description: 'Networking for local owners.' },
  { title: 'Freelancer Tax Clinic', category: 'Business', description: 'Volunteer accountants answer questions.' },
  { title: 'Makers Pitch Night', category: 'Business', description: 'Five makers pitch to local investors.' },
  { title: 'Pickup Soccer at the Park', category: 'Sports', description: 'All levels, bring water.' },
  { title: 'Riverfront 5K Fun Run', category: 'Sports', description: 'Timed run along the river.' },
  { title: 'Beginner Climbing Night', category: 'Sports', description: 'Gear provided.' },
  { title: 'JavaScript Meetup: Web Workers', category: 'Tech', description: 'Talks and pizza.' },
  { title: 'Hardware Hack Night', category: 'Tech', description: 'Bring a project, solder together.' },
  { title: 'Intro to Home Automation', category: 'Tech', description: 'A friendly beginner workshop.' },
  { title: 'Sunrise Yoga by the River', category: 'Wellness', description: 'Bring a mat.' },
  { title: 'Mindful Walking Group', category: 'Wellness', description: 'A slow, quiet walk through the park.' },
];

const SOURCE_TYPES = ['meetup', 'municipal', 'facebook', 'eventbrite'] as const;
const PRICES = [null, 10, 15.5, 0, 25, null, 8];

/** The seed events, with start dates relative to `now`: three within 24 hours, the rest 3 to 20 days out. */
export function seedInputs(now = Date.now()): EventInputRaw[] {
  return EVENTS.map((e, i) => {
    const place = PLACES[i % PLACES.length]!;
    const startsIn = i < 3 ? (2 + i * 7) * HOUR : (3 + ((i * 7) % 18)) * DAY + (i % 5) * HOUR;
    // Whole hours, so dates read cleanly.
    const start = new Date(Math.ceil((now + startsIn) / HOUR) * HOUR);
    const slug = e.title.toLowerCase().replace(/[^a-z0-9]+/g, '-');
    return {
      title: e.title,
      description: e.description,
      category: e.category as EventInputRaw['category'],
      sourceType: e.title === SEED.zebra ? 'meetup' : e.title === SEED.quokka ? 'eventbrite' : SOURCE_TYPES[i % SOURCE_TYPES.length]!,
      sourceUrl: `https://example.org/events/${slug}`,
      imageUrl: null,
      startDate: start.toISOString(),
      endDate: new Date(start.getTime() + 2 * HOUR).toISOString(),
      venue: place.venue,
      address: place.address,
      neighbourhood: place.neighbourhood,
      // A little spread around each place, all within a few miles of downtown (45.52, -122.68).
      lat: Number((place.lat + ((i % 3) - 1) * 0.002).toFixed(5)),
      lng: Number((place.lng + ((i % 4) - 1.5) * 0.002).toFixed(5)),
      price: e.title === SEED.zebra ? 18 : PRICES[i % PRICES.length]!,
      attendeeCount: (i * 37) % 240,
      status: 'approved',
    };
  });
}

/** Signs in as the e2e admin through the API and creates the seed events (once per database). */
export async function seedEvents(baseURL: string): Promise<void> {
  const login = await fetch(`${baseURL}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: baseURL },
    body: JSON.stringify({ email: ADMIN.email, password: ADMIN.password }),
  });
  if (!login.ok) throw new Error(`seed: admin sign-in failed: ${login.status} ${await login.text()}`);
  const cookie = login.headers
    .getSetCookie()
    .map((c) => c.split(';')[0]!)
    .filter((c) => c.startsWith('tb_session='))
    .join('; ');
  if (!cookie) throw new Error('seed: the sign-in answer set no tb_session cookie');

  const existing = await fetch(`${baseURL}/api/events?search=${encodeURIComponent(SEED.zebra)}`);
  if (existing.ok && ((await existing.json()) as unknown[]).length > 0) return;

  for (const input of seedInputs()) {
    const res = await fetch(`${baseURL}/api/admin/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: baseURL, cookie },
      body: JSON.stringify(input),
    });
    if (res.status !== 201) throw new Error(`seed: creating "${input.title}" failed: ${res.status} ${await res.text()}`);
  }
}
