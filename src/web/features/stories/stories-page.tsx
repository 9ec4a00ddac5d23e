import { BookOpen, PenLine, RefreshCw, Sparkles } from 'lucide-react';
import { useState } from 'react';
import { CATEGORY_LABELS, FEATURED_PREVIEW_CHARS, LIST_PREVIEW_CHARS, STORY_CATEGORIES, type Story } from '../../../contract/stories.ts';
import { Button } from '../../components/ui/button.tsx';
import { toast } from '../../components/ui/use-toast.ts';
import { useAuth } from '../auth/auth.queries.ts';
import { useInterfaceMode } from '../auth/interface-mode.ts';
import { useCityTimeZone } from '../events/events.queries.ts';
import { ShareStoryDialog } from './share-story-dialog.tsx';
import { StoryCard } from './story-card.tsx';
import { StoryReader } from './story-reader.tsx';
import { useFeatureStory, useGenerateStory, useReviewStory, useStories, type StoryFilter } from './stories.queries.ts';

const FILTERS: { id: StoryFilter; label: string }[] = [{ id: 'all', label: 'All' }, ...STORY_CATEGORIES.map((c) => ({ id: c, label: CATEGORY_LABELS[c] }))];

function Count({ label, value, testId }: { label: string; value: number | undefined; testId: string }) {
  return (
    <div className="rounded-lg border border-border bg-card p-3 text-center">
      <dt className="text-xs font-semibold uppercase tracking-wide text-muted-foreground">{label}</dt>
      <dd className="text-2xl font-bold" data-testid={testId}>
        {value ?? '–'}
      </dd>
    </div>
  );
}

/** Admin only: asks the story generator for one more story. */
function GenerateButton() {
  const generate = useGenerateStory();
  return (
    <Button
      variant="outline"
      disabled={generate.isPending}
      onClick={() =>
        generate.mutate(
          {},
          {
            onSuccess: (s) => toast({ title: 'Story generated', description: s.title }),
            onError: () => toast({ title: 'Error', description: 'The story could not be generated', variant: 'destructive' }),
          },
        )
      }
    >
      <Sparkles className="h-4 w-4" aria-hidden />
      {generate.isPending ? 'Generating…' : 'Generate a story'}
    </Button>
  );
}

/** /stories: community stories (spec section 2): filter, featured, all, counts and the share dialog. */
export default function StoriesPage() {
  const [filter, setFilter] = useState<StoryFilter>('all');
  const [sharing, setSharing] = useState(false);
  const [openId, setOpenId] = useState<Story | null>(null);
  const { data, isPending, isError, refetch, isFetching } = useStories(filter);
  const timeZone = useCityTimeZone();
  const { isAdmin } = useAuth();
  const [mode] = useInterfaceMode();
  const moderating = isAdmin && mode === 'admin';
  const feature = useFeatureStory();
  const review = useReviewStory();

  // The open story as the latest list has it (likes and views move while it is open).
  const open = openId ? ([...(data?.stories ?? []), ...(data?.featured ?? [])].find((s) => s.id === openId.id) ?? openId) : null;
  const adminFor = (s: Story) =>
    moderating
      ? {
          busy: feature.isPending || review.isPending,
          onFeature: (featured: boolean) => feature.mutate({ id: s.id, featured }),
          onReview: (action: 'restore' | 'remove') => review.mutate({ id: s.id, action }),
        }
      : undefined;

  return (
    <section aria-labelledby="page-heading" className="mx-auto max-w-6xl space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 id="page-heading" className="text-3xl font-bold">
            Community Stories
          </h1>
          <p className="mt-1 text-muted-foreground">Legends, histories and mysteries of the places around you, told by neighbours and by our story engine.</p>
        </div>
        <div className="flex flex-wrap gap-2">
          {moderating && <GenerateButton />}
          <Button onClick={() => setSharing(true)}>
            <PenLine className="h-4 w-4" aria-hidden />
            Share Your Story
          </Button>
        </div>
      </div>

      <dl className="grid grid-cols-3 gap-3" aria-label="Story counts">
        <Count label="Total Stories" value={data?.metadata.totalStories} testId="count-total" />
        <Count label="AI-Generated" value={data?.metadata.aiGenerated} testId="count-ai" />
        <Count label="User-Submitted" value={data?.metadata.userSubmitted} testId="count-user" />
      </dl>

      <div role="group" aria-label="Category" className="flex flex-wrap gap-2">
        {FILTERS.map((f) => (
          <button
            key={f.id}
            type="button"
            aria-pressed={filter === f.id}
            onClick={() => setFilter(f.id)}
            className={`inline-flex min-h-11 items-center rounded-full border px-4 text-sm font-semibold transition-colors duration-150 ${filter === f.id ? 'border-primary bg-primary text-primary-foreground' : 'border-border bg-card hover:bg-muted'}`}
          >
            {f.label}
          </button>
        ))}
      </div>

      {isPending ? (
        <div role="status" aria-label="Loading stories" className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {Array.from({ length: 6 }, (_, i) => (
            <div key={i} className="h-56 animate-pulse rounded-lg bg-muted" />
          ))}
        </div>
      ) : isError && !data ? (
        <div role="alert" className="rounded-lg border border-destructive/40 bg-card p-6 text-center">
          <p className="font-semibold">The stories could not be loaded</p>
          <Button variant="outline" className="mt-3" onClick={() => void refetch()} disabled={isFetching}>
            <RefreshCw className={`h-4 w-4 ${isFetching ? 'animate-spin' : ''}`} aria-hidden />
            Try again
          </Button>
        </div>
      ) : (
        <>
          <section aria-labelledby="featured-heading" className="space-y-3">
            <h2 id="featured-heading" className="text-xl font-bold">
              Featured Stories
            </h2>
            {data.featured.length === 0 ? (
              <p className="rounded-lg border border-dashed border-border bg-card p-4 text-muted-foreground">No featured stories{filter === 'all' ? '' : ` in ${CATEGORY_LABELS[filter]}`} yet.</p>
            ) : (
              <div className="grid gap-4 md:grid-cols-2" data-testid="featured-stories">
                {data.featured.map((s) => (
                  <StoryCard key={s.id} story={s} previewChars={FEATURED_PREVIEW_CHARS} timeZone={timeZone} onOpen={setOpenId} admin={adminFor(s)} />
                ))}
              </div>
            )}
          </section>

          <section aria-labelledby="all-heading" className="space-y-3">
            <h2 id="all-heading" className="text-xl font-bold">
              All Stories
            </h2>
            {data.stories.length === 0 ? (
              <div className="flex flex-col items-center gap-2 rounded-lg border border-dashed border-border bg-card p-8 text-center">
                <BookOpen className="h-8 w-8 text-muted-foreground" aria-hidden />
                <p className="font-semibold">No stories yet</p>
                <p className="text-sm text-muted-foreground">Be the first to share one.</p>
              </div>
            ) : (
              <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3" data-testid="all-stories">
                {data.stories.map((s) => (
                  <StoryCard key={s.id} story={s} previewChars={LIST_PREVIEW_CHARS} timeZone={timeZone} onOpen={setOpenId} admin={adminFor(s)} />
                ))}
              </div>
            )}
          </section>
        </>
      )}

      <ShareStoryDialog open={sharing} onOpenChange={setSharing} />
      <StoryReader story={open} timeZone={timeZone} onClose={() => setOpenId(null)} />
    </section>
  );
}
