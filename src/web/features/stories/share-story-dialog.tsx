import { useId, type FormEvent } from 'react';
import { useDraft } from '../../lib/use-draft.ts';
import { CATEGORY_LABELS, STORY_AUTHOR_MAX, STORY_CATEGORIES, STORY_CONTENT_MAX, STORY_TITLE_MAX, type StoryCategory } from '../../../contract/stories.ts';
import { Button } from '../../components/ui/button.tsx';
import { Dialog } from '../../components/ui/dialog.tsx';
import { toast } from '../../components/ui/use-toast.ts';
import { ApiError } from '../../lib/api-client.ts';
import { useShareStory } from './stories.queries.ts';

const controlClass = 'min-h-11 w-full rounded-lg border border-border bg-background px-3 text-base outline-none focus:border-ring';
const EMPTY = { title: '', author: '', category: 'community' as StoryCategory, content: '' };

/**
 * The 'Share Your Story' dialog (spec sections 4 and 5): title, author, category (community by
 * default) and content capped at 5000 characters with a counter; the button stays disabled until
 * title, content and author are filled. A successful submit closes it, clears it and refreshes the list.
 */
export function ShareStoryDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  // Kept as a draft: closing the dialog, leaving or reloading does not lose a story being written.
  const [form, setForm, clearForm] = useDraft('share-story', EMPTY);
  const share = useShareStory();
  const id = useId();
  const ready = form.title.trim() !== '' && form.content.trim() !== '' && form.author.trim() !== '';
  const set = (key: keyof typeof EMPTY) => (value: string) => setForm((f) => ({ ...f, [key]: value }));

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!ready || share.isPending) return;
    share.mutate(form, {
      onSuccess: (res) => {
        clearForm();
        onOpenChange(false);
        toast({ title: 'Story Shared!', description: res.pointsEarned > 0 ? `+${res.pointsEarned} points for sharing your story` : (res.message ?? 'Thank you for sharing your story') });
      },
    });
  };
  const error = share.error instanceof ApiError ? (share.error.serverMessage ?? share.error.message) : share.error ? 'Your story could not be shared. Please try again.' : null;

  return (
    <Dialog open={open} onOpenChange={onOpenChange} title="Share Your Story" description="Tell the community about a place, a memory or a legend of your neighbourhood.">
      <form onSubmit={submit} className="space-y-4" noValidate>
        <div className="space-y-1">
          <label htmlFor={`${id}-title`} className="text-sm font-semibold">
            Title
          </label>
          <input id={`${id}-title`} value={form.title} onChange={(e) => set('title')(e.target.value)} maxLength={STORY_TITLE_MAX} required className={controlClass} />
        </div>
        <div className="space-y-1">
          <label htmlFor={`${id}-author`} className="text-sm font-semibold">
            Your name
          </label>
          <input id={`${id}-author`} value={form.author} onChange={(e) => set('author')(e.target.value)} maxLength={STORY_AUTHOR_MAX} required autoComplete="name" className={controlClass} />
        </div>
        <div className="space-y-1">
          <label htmlFor={`${id}-category`} className="text-sm font-semibold">
            Category
          </label>
          <select id={`${id}-category`} value={form.category} onChange={(e) => set('category')(e.target.value)} className={controlClass}>
            {STORY_CATEGORIES.map((c) => (
              <option key={c} value={c}>
                {CATEGORY_LABELS[c]}
              </option>
            ))}
          </select>
        </div>
        <div className="space-y-1">
          <label htmlFor={`${id}-content`} className="text-sm font-semibold">
            Your story
          </label>
          <textarea
            id={`${id}-content`}
            value={form.content}
            onChange={(e) => set('content')(e.target.value.slice(0, STORY_CONTENT_MAX))}
            maxLength={STORY_CONTENT_MAX}
            rows={8}
            required
            aria-describedby={`${id}-count`}
            className={`${controlClass} py-2`}
          />
          <p id={`${id}-count`} data-testid="story-counter" className="text-right text-xs text-muted-foreground" aria-live="polite">
            {form.content.length}/{STORY_CONTENT_MAX}
          </p>
        </div>
        {error && (
          <p role="alert" className="text-sm text-destructive">
            {error}
          </p>
        )}
        <div className="flex justify-end gap-2">
          <Button variant="outline" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button type="submit" disabled={!ready || share.isPending}>
            {share.isPending ? 'Sharing…' : 'Share Story'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
