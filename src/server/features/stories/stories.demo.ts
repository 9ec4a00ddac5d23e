import type { FastifyInstance } from 'fastify';
import type { GeneratedCategory, StoryCategory } from '../../../contract/stories.ts';
import type { NewStoryRow } from './stories.repository.ts';

const DAY_MS = 86_400_000;

/**
 * Invented stories of members of the demo city (Portland): the people, shops and events in them
 * are made up, and every row is marked `isDemo`. Only seeded when the city is the demo city.
 */
const PORTLAND_COMMUNITY: { title: string; author: string; category: StoryCategory; daysAgo: number; featured?: boolean; content: string }[] = [
  {
    title: 'The Umbrella Swap on Alberta',
    author: 'Marisol T.',
    category: 'community',
    daysAgo: 2,
    featured: true,
    content:
      'Every rainy Last Thursday someone leaves a bucket of mismatched umbrellas outside the corner café on Alberta with a hand-painted sign: take one, leave one. I took a green one with ducks on it three winters ago and brought back a sturdy black one the next month. Nobody knows who started it. Last week the bucket had a note taped inside: "Thank you for keeping each other dry." I walked home grinning in the drizzle, ducks and all.',
  },
  {
    title: 'Sunday Chess at Sellwood Park',
    author: 'Dev R.',
    category: 'community',
    daysAgo: 5,
    content:
      'I moved to Sellwood knowing nobody. A retired teacher named Gus had a folding table and two chess sets under the big oak by the pool every Sunday at ten. He lost to me on purpose the first time; I could tell. Now there are six tables, a thermos of coffee that appears from somewhere, and a kid of eleven who beats all of us. If you play, come by. If you do not play, Gus will teach you in twenty minutes.',
  },
  {
    title: 'The Bridge That Sings in St. Johns',
    author: 'Hollis W.',
    category: 'legend',
    daysAgo: 9,
    content:
      'My grandmother swore the cables of the big green bridge hum a note when the fog comes in off the Willamette, and that if you hum it back, you will find whatever you lost that week. I have tried it four times. I found my keys twice, a library book once, and once, nothing at all, which she said meant I had not really lost anything. I still hum on foggy mornings, just in case.',
  },
  {
    title: 'When the Food Carts Came to Division',
    author: 'Priya K.',
    category: 'history',
    daysAgo: 14,
    content:
      'Before the pod went in, the lot on our block was gravel and blackberries. The first cart was a tiny trailer selling dumplings out of a window the size of a cereal box. By summer there were five carts, picnic tables, and string lights someone bolted to the fence. Our neighbourhood association still argues about parking, but on warm evenings the whole street ends up there anyway, and that feels like history worth writing down.',
  },
  {
    title: 'Who Paints the Fire Hydrants in Montavilla?',
    author: 'Jonah P.',
    category: 'mystery',
    daysAgo: 20,
    content:
      'Overnight, every fire hydrant on my six-block walk to the bakery got a face: a fox, an owl, a grumpy old man with a moustache. No signature, no social media account, nothing. The paint is careful and neat and it never covers the reflective caps. A neighbour claims she saw a woman with a headlamp at 4 a.m., but she also claims to have seen Bigfoot at Mount Tabor, so. If this was you: thank you, and please do the one outside the library next.',
  },
  {
    title: 'Our Porch Concert in Irvington',
    author: 'Lena & Sam O.',
    category: 'community',
    daysAgo: 27,
    featured: true,
    content:
      'We asked three neighbours who play instruments to bring them to our porch for one hour on a Saturday in September. We expected ten people. Sixty came, with lawn chairs and a bowl of plums from someone’s tree. A cellist from two streets over played a piece she wrote for her father. We are doing it again in the spring; bring a chair.',
  },
  {
    title: 'The Lost Dog of Hawthorne Boulevard',
    author: 'Renee M.',
    category: 'community',
    daysAgo: 33,
    content:
      'Biscuit slipped her collar outside the record store and ran. Within an hour the owner of the vintage shop had printed flyers, the barista had posted in three group chats, and two teenagers on bikes were checking every alley between 30th and 39th. She was found asleep in the window display of a bookstore, on top of a stack of cookbooks. I will never be able to repay that street, but I try, one coffee at a time.',
  },
  {
    title: 'Lantern Night in Old Town',
    author: 'Kenji A.',
    category: 'history',
    daysAgo: 41,
    content:
      'My family has walked the lantern procession in Old Town for three generations. My grandfather carried a paper lantern he made himself; my mother carried a battery one she was a little embarrassed about; this year my daughter carried one she painted with our cat. The route has changed, the crowd has grown, but the moment the lights come up along the waterfront is the same every year.',
  },
];

/** Categories of the generated demo stories, in order of the places they are written about. */
const GENERATED: GeneratedCategory[] = ['history', 'legend', 'mystery', 'legend'];

/**
 * Seeds the demo city's stories when there are none: a few written by the built-in generator
 * about the places with the most past events, and invented members' stories about Portland places.
 */
export async function seedStoriesDemo(app: FastifyInstance): Promise<{ feature: string; rows: number }> {
  const stories = app.stories;
  if (!(await stories.isEmpty())) return { feature: 'stories', rows: 0 };
  const now = stories.now();
  let rows = 0;
  const places = (await stories.places()).sort((a, b) => b.events.length - a.events.length).slice(0, GENERATED.length);
  for (const [i, place] of places.entries()) {
    await stories.generate({
      place: place.name,
      category: GENERATED[i]!,
      engine: 'built-in',
      seed: `demo-${i}`,
      isDemo: true,
      featured: i === 0,
      // Written now, from the events past now: dated earlier, a story would tell as past what had not happened yet.
      createdAt: new Date(now.getTime() - (i + 1) * 60_000),
    });
    rows += 1;
  }
  if (stories.cityName === 'Portland') {
    const demo: NewStoryRow[] = PORTLAND_COMMUNITY.map((s) => ({
      title: s.title,
      content: s.content,
      category: s.category,
      author: s.author,
      userId: null,
      aiGenerated: false,
      featured: s.featured ?? false,
      isDemo: true,
      createdAt: new Date(now.getTime() - s.daysAgo * DAY_MS),
    }));
    rows += await stories.insertDemo(demo);
  }
  return { feature: 'stories', rows };
}
