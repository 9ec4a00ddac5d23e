import { Fragment, useState, type ReactNode } from 'react';
import { Brain, ChevronDown, MapPin, Medal, ScanEye, Star, Trophy, type LucideIcon } from 'lucide-react';
import { Progress } from '../../components/ui/progress.tsx';

/**
 * The landing page's 'See It in Action' section (spec section 2). Every figure here is static
 * marketing copy (decisions section 1), so each panel carries a visible 'Demo' label.
 */

export type DemoId = 'ai-discovery' | 'hyperlocal-coverage' | 'community-gamification' | 'ar-discovery';

interface DemoCard {
  id: DemoId;
  title: string;
  icon: LucideIcon;
  blurb: string;
}

export const demoCards: readonly DemoCard[] = [
  {
    id: 'ai-discovery',
    title: 'AI Discovery',
    icon: Brain,
    blurb: 'Watch new listings get sorted into the right category the moment they arrive.',
  },
  {
    id: 'hyperlocal-coverage',
    title: 'Hyperlocal Coverage',
    icon: MapPin,
    blurb: 'See how many events we capture, neighbourhood by neighbourhood.',
  },
  {
    id: 'community-gamification',
    title: 'Community Gamification',
    icon: Trophy,
    blurb: 'Earn points and badges for getting out there, and climb the local leaderboard.',
  },
  {
    id: 'ar-discovery',
    title: 'AR Discovery',
    icon: ScanEye,
    blurb: 'Point your camera down the street and see what is happening around you.',
  },
];

type CategoryName = 'Music' | 'Food' | 'Business';
const categoryColour: Record<CategoryName, string> = {
  Music: 'var(--cat-music)',
  Food: 'var(--cat-food)',
  Business: 'var(--cat-business)',
};

const sampleEvents: { title: string; where: string; category: CategoryName; confidence: string }[] = [
  { title: 'Jazz Night at the Waterfront', where: 'Tom McCall Waterfront Park', category: 'Music', confidence: '97%' },
  { title: 'Food Cart Festival', where: 'Hawthorne Asylum pod', category: 'Food', confidence: '95%' },
  { title: 'Startup Pitch Night', where: 'Pearl District co-working loft', category: 'Business', confidence: '92%' },
];

const sampleAreas: { name: string; events: number; coverage: number }[] = [
  { name: 'Downtown', events: 128, coverage: 94 },
  { name: 'Pearl District', events: 96, coverage: 91 },
  { name: 'Alberta Arts', events: 74, coverage: 89 },
  { name: 'Hawthorne', events: 62, coverage: 87 },
];

const sampleBadges: { name: string; reason: string; points: number; icon: LucideIcon }[] = [
  { name: 'Event Explorer', reason: 'Discovered 10 new events', points: 50, icon: Star },
  { name: 'Neighbourhood Regular', reason: 'Checked in 3 weeks in a row', points: 25, icon: MapPin },
  { name: 'Culture Vulture', reason: 'Went to your first gallery night', points: 15, icon: Medal },
];

function DemoChip() {
  return (
    <span className="inline-flex items-center rounded-full border border-border bg-accent-soft px-2.5 py-0.5 text-xs font-semibold text-accent">
      Demo
    </span>
  );
}

function PanelFrame({ id, title, note, children }: { id: DemoId; title: string; note: string; children: ReactNode }) {
  const headingId = `demo-panel-${id}-heading`;
  return (
    <>
      <div className="flex flex-wrap items-center gap-2">
        <h3 id={headingId} className="text-lg font-bold">
          {title}
        </h3>
        <DemoChip />
      </div>
      <p className="mt-1 text-sm text-muted-foreground">{note}</p>
      <div className="mt-4">{children}</div>
    </>
  );
}

function AiDemo() {
  return (
    <PanelFrame id="ai-discovery" title="AI discovery demo" note="Sample listings, classified as they come in.">
      <ul className="grid gap-3 md:grid-cols-3">
        {sampleEvents.map((e) => (
          <li key={e.title} className="rounded-lg border border-border bg-background p-4">
            <p className="font-semibold">{e.title}</p>
            <p className="mt-0.5 text-sm text-muted-foreground">{e.where}</p>
            <div className="mt-3 flex items-center justify-between gap-2">
              <span className="inline-flex items-center gap-1.5 rounded-full bg-muted px-2.5 py-1 text-xs font-semibold">
                <span aria-hidden="true" className="size-2 rounded-full" style={{ backgroundColor: categoryColour[e.category] }} />
                {e.category}
              </span>
              <span className="text-xs text-muted-foreground">{e.confidence} confident</span>
            </div>
          </li>
        ))}
      </ul>
    </PanelFrame>
  );
}

function CoverageDemo() {
  return (
    <PanelFrame
      id="hyperlocal-coverage"
      title="Hyperlocal coverage demo"
      note="Events found within a 2-mile radius of four sample neighbourhoods."
    >
      <ul className="grid gap-4 sm:grid-cols-2">
        {sampleAreas.map((a) => (
          <li key={a.name} className="rounded-lg border border-border bg-background p-4">
            <div className="flex items-baseline justify-between gap-2">
              <p className="font-semibold">{a.name}</p>
              <p className="text-sm text-muted-foreground">{a.events} events</p>
            </div>
            <Progress className="mt-3" value={a.coverage} label={`${a.name} coverage`} />
          </li>
        ))}
      </ul>
      <p className="mt-4 flex flex-wrap items-center gap-x-4 gap-y-1 text-sm">
        <span className="inline-flex items-center gap-1.5">
          <MapPin aria-hidden="true" className="size-4 text-primary" />
          2-mile radius
        </span>
        <span>
          <strong className="text-success">90.3%</strong> local event capture
        </span>
      </p>
    </PanelFrame>
  );
}

function RewardsDemo() {
  return (
    <PanelFrame id="community-gamification" title="Community gamification demo" note="A sample week of a Townbeat regular.">
      <div className="grid gap-4 md:grid-cols-[1fr_auto]">
        <ul className="grid gap-3">
          {sampleBadges.map((b) => (
            <li key={b.name} className="flex items-center gap-3 rounded-lg border border-border bg-background p-3">
              <span className="grid size-10 shrink-0 place-items-center rounded-full bg-accent-soft text-accent">
                <b.icon aria-hidden="true" className="size-5" />
              </span>
              <div className="min-w-0 flex-1">
                <p className="font-semibold">{b.name}</p>
                <p className="text-sm text-muted-foreground">{b.reason}</p>
              </div>
              <span className="rounded-full bg-accent-soft px-2.5 py-1 text-sm font-bold text-accent">+{b.points}</span>
            </li>
          ))}
        </ul>
        <div className="flex flex-row items-center justify-around gap-6 rounded-lg bg-primary p-4 text-primary-foreground md:flex-col md:justify-center md:px-8">
          <p className="text-center">
            <span className="block text-3xl font-extrabold" data-testid="demo-total-points">
              847
            </span>
            <span className="text-sm">total points</span>
          </p>
          <p className="text-center">
            <span className="block text-3xl font-extrabold">Rank #23</span>
            <span className="text-sm">in your city</span>
          </p>
        </div>
      </div>
    </PanelFrame>
  );
}

/**
 * React sets `muted` only as a property; some browsers (iOS Safari) want the attribute too
 * before they allow muted autoplay, so mirror it onto the element.
 */
function keepMutedAttribute(el: HTMLVideoElement | null) {
  if (!el) return;
  el.defaultMuted = true;
  el.muted = true;
  el.setAttribute('muted', '');
}

/** The clip is only mounted while the panel is open, so a closed panel downloads nothing. */
function ArDemo({ active }: { active: boolean }) {
  return (
    <PanelFrame id="ar-discovery" title="AR discovery demo" note="A simulated camera view with nearby events floating over the street.">
      <div className="relative mx-auto max-w-3xl overflow-hidden rounded-lg bg-stone-900">
        {active ? (
          <video
            ref={keepMutedAttribute}
            className="aspect-video w-full object-cover"
            autoPlay
            loop
            muted
            playsInline
            preload="auto"
            aria-label="Demo clip: a camera view of a city street at dusk with event markers floating above the buildings"
          >
            <source src="/assets/ar-demo.webm" type="video/webm" />
            <source src="/assets/ar-demo.mp4" type="video/mp4" />
          </video>
        ) : (
          <div className="aspect-video w-full" />
        )}
        <span className="absolute left-3 top-3 inline-flex items-center gap-1.5 rounded-full bg-red-700 px-2.5 py-1 text-xs font-bold tracking-wide text-white">
          <span aria-hidden="true" className="size-2 animate-pulse rounded-full bg-white" />
          AR LIVE
        </span>
        <span className="absolute bottom-3 left-3 inline-flex items-center gap-1.5 rounded-full bg-black/75 px-2.5 py-1 text-xs font-semibold text-white">
          <MapPin aria-hidden="true" className="size-3.5" />
          Pearl District, Portland
        </span>
      </div>
    </PanelFrame>
  );
}

const panels: Record<DemoId, (props: { active: boolean }) => ReactNode> = {
  'ai-discovery': AiDemo,
  'hyperlocal-coverage': CoverageDemo,
  'community-gamification': RewardsDemo,
  'ar-discovery': ArDemo,
};

export function DemosSection() {
  const [open, setOpen] = useState<DemoId | null>(null);
  const toggle = (id: DemoId) => setOpen((cur) => (cur === id ? null : id));

  return (
    <section id="demos" aria-labelledby="demos-heading" className="scroll-mt-20 bg-muted py-16 sm:py-20">
      <div className="mx-auto max-w-6xl px-4 sm:px-6">
        <div className="mx-auto max-w-2xl text-center">
          <h2 id="demos-heading" className="text-3xl font-extrabold tracking-tight sm:text-4xl">
            See It in Action
          </h2>
          <p className="mt-3 text-muted-foreground">
            Try the four ideas behind Townbeat. These are illustrative demos with sample Portland data, not live figures.
          </p>
        </div>

        {/*
          Each panel follows its card in the DOM, so on a phone it opens right under the card and
          keyboard and screen-reader order run button, then panel. From sm up the grid shows the
          cards in one band and the open panel full width beneath it (CSS order only).
        */}
        <div className="mt-10 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {demoCards.map((card) => {
            const isOpen = open === card.id;
            const Panel = panels[card.id];
            return (
              <Fragment key={card.id}>
                <div
                  data-demo-id={card.id}
                  className={`flex flex-col rounded-lg border bg-card p-5 shadow-sm transition-shadow duration-200 sm:order-1 ${
                    isOpen ? 'border-primary ring-2 ring-primary' : 'border-border hover:shadow-md'
                  }`}
                >
                  <span className="grid size-11 place-items-center rounded-lg bg-accent-soft text-accent">
                    <card.icon aria-hidden="true" className="size-6" />
                  </span>
                  <h3 id={`demo-card-${card.id}-title`} className="mt-4 font-bold">
                    {card.title}
                  </h3>
                  <p className="mt-1 flex-1 text-sm text-muted-foreground">{card.blurb}</p>
                  <button
                    type="button"
                    aria-expanded={isOpen}
                    aria-controls={`demo-panel-${card.id}`}
                    aria-describedby={`demo-card-${card.id}-title`}
                    onClick={() => toggle(card.id)}
                    className={`mt-4 inline-flex min-h-11 items-center justify-center gap-2 rounded-lg px-4 text-sm font-semibold transition-colors duration-200 ${
                      isOpen
                        ? 'border border-primary bg-primary text-primary-foreground'
                        : 'border border-border bg-background hover:bg-muted'
                    }`}
                  >
                    {isOpen ? 'Hide Demo' : 'See Demo'}
                    <ChevronDown
                      aria-hidden="true"
                      className={`size-4 transition-transform duration-200 ${isOpen ? 'rotate-180' : ''}`}
                    />
                  </button>
                </div>
                <div
                  id={`demo-panel-${card.id}`}
                  role="region"
                  aria-labelledby={`demo-panel-${card.id}-heading`}
                  data-demo-panel={card.id}
                  hidden={!isOpen}
                  className="col-span-full rounded-lg border border-border bg-card p-5 shadow-sm sm:order-2 sm:mt-2 sm:p-6"
                >
                  <Panel active={isOpen} />
                </div>
              </Fragment>
            );
          })}
        </div>
      </div>
    </section>
  );
}
