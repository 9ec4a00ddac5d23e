import { Heart } from 'lucide-react';
import { useState } from 'react';
import { useToggleFavorite } from './use-toggle-favorite.ts';

/** The heart: a toggle button whose name says what a press does. */
export function FavoriteButton({
  eventId,
  title,
  isFavorited,
  className = '',
  outline = false,
}: {
  eventId: string;
  title: string;
  isFavorited: boolean;
  className?: string;
  /** A bordered button on a plain background (the event page) rather than over an image. */
  outline?: boolean;
}) {
  const { toggle, isPending } = useToggleFavorite();
  const [pressed, setPressed] = useState(isFavorited);
  // A fresh server value (refetch, another card of the same event) wins over the local one.
  const [seen, setSeen] = useState(isFavorited);
  if (seen !== isFavorited) {
    setSeen(isFavorited);
    setPressed(isFavorited);
  }
  const label = pressed ? `Remove ${title} from favorites` : `Add ${title} to favorites`;
  return (
    <button
      type="button"
      aria-label={label}
      aria-pressed={pressed}
      aria-busy={isPending || undefined}
      title={pressed ? 'Remove from favorites' : 'Add to favorites'}
      onClick={(e) => {
        e.preventDefault();
        e.stopPropagation();
        if (isPending) return;
        toggle(eventId, setPressed);
      }}
      className={`inline-flex min-h-11 min-w-11 items-center justify-center gap-2 rounded-full transition-colors duration-150 ${
        outline ? 'border border-border bg-card hover:bg-muted' : 'bg-card/90 shadow-sm backdrop-blur hover:bg-card'
      } ${className}`}
    >
      <Heart
        className={`h-5 w-5 transition-transform duration-150 ${pressed ? 'scale-110 fill-[var(--destructive)] text-destructive' : 'text-foreground'}`}
        aria-hidden
      />
    </button>
  );
}
