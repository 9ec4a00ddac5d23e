import { Eye, Flag } from 'lucide-react';
import { useEffect, useState } from 'react';
import { CATEGORY_LABELS, type Story } from '../../../contract/stories.ts';
import { Button } from '../../components/ui/button.tsx';
import { Chip } from '../../components/ui/chip.tsx';
import { Dialog } from '../../components/ui/dialog.tsx';
import { AiBadge, LikeButton, shortDate } from './story-card.tsx';
import { useReportStory, useViewStory } from './stories.queries.ts';

/** The whole story in a dialog; opening it records a view (once per member per day, server side). */
export function StoryReader({ story, timeZone, onClose }: { story: Story | null; timeZone: string | undefined; onClose: () => void }) {
  return (
    <Dialog open={story !== null} onOpenChange={(open) => !open && onClose()} title={story?.title ?? ''} wide>
      {/* Keyed by story: each opened story starts with its own report state and records its own view. */}
      {story && <ReaderBody key={story.id} story={story} timeZone={timeZone} />}
    </Dialog>
  );
}

function ReaderBody({ story, timeZone }: { story: Story; timeZone: string | undefined }) {
  const { mutate: recordView } = useViewStory();
  const report = useReportStory();
  const [confirming, setConfirming] = useState(false);
  const id = story.id;
  useEffect(() => {
    recordView(id);
  }, [id, recordView]);

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center gap-2 text-sm text-muted-foreground">
        <Chip>{CATEGORY_LABELS[story.category]}</Chip>
        {story.aiGenerated && <AiBadge generator={story.generator} />}
        {story.isDemo && <Chip>Demo</Chip>}
        <span>
          by <span className="font-semibold text-foreground">{story.author}</span> · <time dateTime={story.createdAt}>{shortDate(story.createdAt, timeZone)}</time>
        </span>
      </div>
      <div className="whitespace-pre-line text-base leading-relaxed" data-testid="story-full">
        {story.content}
      </div>
      <div className="flex flex-wrap items-center gap-2 border-t border-border pt-3">
        <LikeButton story={story} />
        <span className="inline-flex min-h-11 items-center gap-1 px-2 text-sm text-muted-foreground">
          <Eye className="h-5 w-5" aria-hidden />
          {story.views}
          <span className="sr-only"> views</span>
        </span>
        <div className="ml-auto flex items-center gap-2">
          {story.reportedByMe || report.isSuccess ? (
            <p className="text-sm text-muted-foreground" role="status">
              Reported. Thank you: an admin will review it.
            </p>
          ) : confirming ? (
            <>
              <span className="text-sm">Report this story to the admins?</span>
              <Button variant="destructive" disabled={report.isPending} onClick={() => report.mutate({ id: story.id })}>
                Report
              </Button>
              <Button variant="ghost" onClick={() => setConfirming(false)}>
                Cancel
              </Button>
            </>
          ) : (
            <Button variant="ghost" onClick={() => setConfirming(true)}>
              <Flag className="h-4 w-4" aria-hidden />
              Report
            </Button>
          )}
        </div>
      </div>
      {report.isError && (
        <p role="alert" className="text-sm text-destructive">
          The report could not be sent. Please try again.
        </p>
      )}
    </div>
  );
}
