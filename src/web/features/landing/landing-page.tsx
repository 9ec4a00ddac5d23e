import { Link } from 'wouter';
import {
  ArrowRight,
  Brain,
  CalendarDays,
  Heart,
  Layers,
  MapPin,
  PlayCircle,
  Sparkles,
  Trophy,
  Zap,
  type LucideIcon,
} from 'lucide-react';
import { Button, buttonClass } from '../../components/ui/button.tsx';
import { useAuth } from '../auth/auth.queries.ts';
import { DemosSection } from './landing-demos.tsx';

/**
 * The public landing page (spec section 2, 'Landing page (signed out)'). Its figures are static
 * marketing copy, labelled as demos (decisions section 1).
 */

export type DemoType = 'ai-classification' | 'location-mapping' | 'rewards-system' | 'ar-preview';

export interface Feature {
  id: string;
  title: string;
  icon: LucideIcon;
  description: string;
  demoType: DemoType;
}

export const features: readonly Feature[] = [
  {
    id: 'ai-discovery',
    title: 'AI-Powered Discovery',
    icon: Brain,
    description:
      'Our AI reads listings from 20+ data sources and sorts every event into the right category, so you only see what matters to you.',
    demoType: 'ai-classification',
  },
  {
    id: 'hyperlocal-coverage',
    title: 'Hyperlocal Coverage',
    icon: MapPin,
    description:
      'Neighbourhood-level coverage that captures 90%+ of local events, from block parties to gallery openings down the street.',
    demoType: 'location-mapping',
  },
  {
    id: 'community-gamification',
    title: 'Community Gamification',
    icon: Trophy,
    description:
      'Earn points and badges for exploring your city, climb the leaderboard and share stories with your neighbours.',
    demoType: 'rewards-system',
  },
  {
    id: 'real-time-updates',
    title: 'Real-Time Updates',
    icon: Zap,
    description:
      'New events show up within 15 minutes of being posted, and the AR camera view shows what is happening around you right now.',
    demoType: 'ar-preview',
  },
  {
    id: 'personalized-recommendations',
    title: 'Personalized Recommendations',
    icon: Heart,
    description:
      'Recommendations that learn from the events you favourite and attend, so your feed gets better every week.',
    demoType: 'ai-classification',
  },
  {
    id: 'multiple-data-sources',
    title: 'Multiple Data Sources',
    icon: Layers,
    description:
      'Social networks, a meetup service, municipal feeds, a ticketing service and local business integrations, merged into one calendar.',
    demoType: 'location-mapping',
  },
];

const stats: { value: string; label: string }[] = [
  { value: '20+', label: 'Data Source Types' },
  { value: '90%+', label: 'Local Coverage' },
  { value: '15min', label: 'Discovery Latency' },
  { value: '95%+', label: 'AI Accuracy' },
];

const exampleFeed: { title: string; when: string; where: string; category: string; colour: string }[] = [
  { title: 'Jazz Night at the Waterfront', when: 'Tonight, 7:30 PM', where: 'Downtown', category: 'Music', colour: 'var(--cat-music)' },
  { title: 'Food Cart Festival', when: 'Sat, 11:00 AM', where: 'Hawthorne', category: 'Food', colour: 'var(--cat-food)' },
  { title: 'Last Thursday Art Walk', when: 'Thu, 6:00 PM', where: 'Alberta Arts', category: 'Arts', colour: 'var(--cat-arts)' },
];

/** Where the calls to action take a new visitor: the sign-up page (it links to sign-in). */
const SIGN_UP_PATH = '/signup';

function scrollToDemos() {
  document.getElementById('demos')?.scrollIntoView?.({ behavior: 'smooth', block: 'start' });
}

function BrandMark({ className = 'size-9' }: { className?: string }) {
  return (
    <svg viewBox="0 0 32 32" aria-hidden="true" className={className}>
      <rect width="32" height="32" rx="8" fill="var(--primary)" />
      <path
        d="M6 19h4l3-8 4 14 3-9 2 3h4"
        fill="none"
        stroke="var(--primary-foreground)"
        strokeWidth="2.5"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}

function DashboardLink({ className = '' }: { className?: string }) {
  return (
    <Link href="/dashboard" className={buttonClass('primary', className)}>
      Go to Dashboard
      <ArrowRight aria-hidden="true" className="size-4" />
    </Link>
  );
}

export default function LandingPage() {
  const { isAuthenticated } = useAuth();

  return (
    <div className="min-h-dvh bg-background text-foreground">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:fixed focus:left-4 focus:top-4 focus:z-50 focus:rounded-lg focus:bg-card focus:px-4 focus:py-3 focus:font-semibold focus:shadow-lg"
      >
        Skip to content
      </a>

      <header className="sticky top-0 z-40 border-b border-border bg-background/90 backdrop-blur">
        <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-4 sm:px-6">
          <Link href="/" className="inline-flex min-h-11 items-center gap-2 rounded-lg text-lg font-extrabold tracking-tight">
            <BrandMark />
            Townbeat
          </Link>
          {isAuthenticated ? (
            <DashboardLink />
          ) : (
            <Link href={SIGN_UP_PATH} className={buttonClass('primary')}>
              Get Started
            </Link>
          )}
        </div>
      </header>

      <main id="main" tabIndex={-1} className="focus:outline-none">
        {/* Hero */}
        <section
          aria-labelledby="hero-heading"
          className="relative overflow-hidden bg-linear-to-b from-accent-soft to-background"
        >
          <div
            aria-hidden="true"
            className="pointer-events-none absolute -right-24 -top-24 size-80 rounded-full bg-primary/10 blur-3xl"
          />
          <div className="relative mx-auto grid max-w-6xl grid-cols-1 items-center gap-12 px-4 py-16 sm:px-6 sm:py-20 lg:grid-cols-[1.15fr_1fr] lg:py-24">
            <div>
              <p className="inline-flex items-center gap-2 rounded-full border border-border bg-card px-3 py-1 text-sm font-semibold text-primary">
                <Sparkles aria-hidden="true" className="size-4" />
                Every local event, in one place
              </p>
              <h1 id="hero-heading" className="mt-5 text-4xl font-extrabold tracking-tight text-balance sm:text-5xl lg:text-6xl">
                Never Miss Another Perfect Event
              </h1>
              <p className="mt-5 max-w-xl text-lg text-muted-foreground">
                Townbeat gathers concerts, markets, meetups and neighbourhood happenings from across your city, picks out
                the ones you will love, and rewards you for showing up.
              </p>
              <div className="mt-8 flex flex-col gap-3 sm:flex-row">
                {isAuthenticated ? (
                  <DashboardLink className="px-6 text-base" />
                ) : (
                  <Link href={SIGN_UP_PATH} className={buttonClass('primary', 'px-6 text-base')}>
                    Discover Events Now
                    <ArrowRight aria-hidden="true" className="size-4" />
                  </Link>
                )}
                <Button variant="outline" onClick={scrollToDemos} className="px-6 text-base">
                  <PlayCircle aria-hidden="true" className="size-4" />
                  See How It Works
                </Button>
              </div>
              <p className="mt-6 text-sm text-muted-foreground">Free to join. Points and badges for every event you discover.</p>
            </div>

            <figure className="mx-auto w-full max-w-md rounded-lg border border-border bg-card p-4 shadow-lg sm:p-5">
              <figcaption className="flex items-center justify-between gap-2 text-sm font-semibold">
                <span className="inline-flex items-center gap-2">
                  <CalendarDays aria-hidden="true" className="size-4 text-primary" />
                  Happening near you
                </span>
                <span className="rounded-full border border-border bg-accent-soft px-2.5 py-0.5 text-xs font-semibold text-accent">
                  Example
                </span>
              </figcaption>
              <ul className="mt-4 grid gap-3">
                {exampleFeed.map((e) => (
                  <li key={e.title} className="flex min-w-0 items-center gap-3 rounded-lg border border-border bg-background p-3">
                    <span aria-hidden="true" className="h-12 w-1.5 shrink-0 rounded-full" style={{ backgroundColor: e.colour }} />
                    <div className="min-w-0 flex-1">
                      <p className="truncate font-semibold">{e.title}</p>
                      <p className="text-sm text-muted-foreground">
                        {e.when} · {e.where}
                      </p>
                    </div>
                    <span className="inline-flex shrink-0 items-center gap-1.5 rounded-full bg-muted px-2.5 py-1 text-xs font-semibold">
                      <span aria-hidden="true" className="size-2 rounded-full" style={{ backgroundColor: e.colour }} />
                      {e.category}
                    </span>
                  </li>
                ))}
              </ul>
              <p className="mt-4 flex items-center justify-between rounded-lg bg-accent-soft px-3 py-2 text-sm font-semibold text-accent">
                <span>Favourite an event</span>
                <span>+5 points</span>
              </p>
            </figure>
          </div>
        </section>

        {/* Features */}
        <section aria-labelledby="features-heading" className="py-16 sm:py-20">
          <div className="mx-auto max-w-6xl px-4 sm:px-6">
            <div className="mx-auto max-w-2xl text-center">
              <h2 id="features-heading" className="text-3xl font-extrabold tracking-tight sm:text-4xl">
                Everything Happening Near You
              </h2>
              <p className="mt-3 text-muted-foreground">
                One app for the whole city: smart discovery, real local coverage and a community that rewards you for
                taking part.
              </p>
            </div>
            <ul className="mt-10 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
              {features.map((f) => (
                <li
                  key={f.id}
                  data-feature-id={f.id}
                  data-demo-type={f.demoType}
                  className="rounded-lg border border-border bg-card p-6 shadow-sm transition-shadow duration-200 hover:shadow-md"
                >
                  <span className="grid size-12 place-items-center rounded-lg bg-primary/10 text-primary">
                    <f.icon aria-hidden="true" className="size-6" />
                  </span>
                  <h3 className="mt-4 text-lg font-bold">{f.title}</h3>
                  <p className="mt-2 text-sm leading-relaxed text-muted-foreground">{f.description}</p>
                </li>
              ))}
            </ul>
          </div>
        </section>

        <DemosSection />

        {/* Platform performance */}
        <section aria-labelledby="performance-heading" className="bg-primary py-16 text-primary-foreground sm:py-20">
          <div className="mx-auto max-w-6xl px-4 sm:px-6">
            <div className="mx-auto max-w-2xl text-center">
              <h2 id="performance-heading" className="text-3xl font-extrabold tracking-tight sm:text-4xl">
                Platform Performance
              </h2>
              <p className="mt-3">Built to keep up with a busy city.</p>
            </div>
            <dl className="mt-10 grid grid-cols-2 gap-4 lg:grid-cols-4">
              {stats.map((s) => (
                <div key={s.label} className="flex flex-col-reverse rounded-lg border border-primary-foreground/30 p-5 text-center">
                  <dt className="mt-1 text-sm font-semibold">{s.label}</dt>
                  <dd className="text-4xl font-extrabold tracking-tight">{s.value}</dd>
                </div>
              ))}
            </dl>
            <p className="mx-auto mt-8 flex max-w-2xl flex-wrap items-center justify-center gap-2 text-center text-sm">
              <span className="rounded-full bg-accent-soft px-2.5 py-0.5 text-xs font-semibold text-accent">Demo</span>
              In a sample run our classifier reached 94.2% accuracy while processing 847 events per minute.
            </p>
          </div>
        </section>

        {/* Closing call to action */}
        <section aria-labelledby="cta-heading" className="py-16 sm:py-20">
          <div className="mx-auto max-w-4xl px-4 sm:px-6">
            <div className="rounded-lg border border-border bg-card px-6 py-12 text-center shadow-sm sm:px-12">
              <h2 id="cta-heading" className="text-3xl font-extrabold tracking-tight text-balance sm:text-4xl">
                Ready to Discover Your City?
              </h2>
              <p className="mx-auto mt-3 max-w-xl text-muted-foreground">
                Join your neighbours, find something great to do tonight, and earn points while you are at it.
              </p>
              <div className="mt-8 flex justify-center">
                {isAuthenticated ? (
                  <DashboardLink className="px-6 text-base" />
                ) : (
                  <Link href={SIGN_UP_PATH} className={buttonClass('primary', 'px-6 text-base')}>
                    Get Started for Free
                    <ArrowRight aria-hidden="true" className="size-4" />
                  </Link>
                )}
              </div>
            </div>
          </div>
        </section>
      </main>

      <footer className="border-t border-border bg-muted">
        <div className="mx-auto flex max-w-6xl flex-col gap-4 px-4 py-10 sm:px-6 md:flex-row md:items-start md:justify-between">
          <div>
            <p className="inline-flex items-center gap-2 text-lg font-extrabold tracking-tight">
              <BrandMark className="size-7" />
              Townbeat
            </p>
            <p className="mt-2 max-w-sm text-sm text-muted-foreground">
              Every local event in one place, with points, badges and quests for taking part.
            </p>
          </div>
          <div className="text-sm text-muted-foreground md:text-right">
            <p>© 2026 Townbeat</p>
            <p className="mt-1">Figures on this page are illustrative demos, not live data.</p>
          </div>
        </div>
      </footer>
    </div>
  );
}
