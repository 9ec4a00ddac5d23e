import { ArrowLeft, RefreshCw } from 'lucide-react';
import { Link } from 'wouter';
import { Button, buttonClass } from './button.tsx';

/**
 * A detail page whose record did not load: "<Thing> not found" when the server said so, else
 * "<Thing> could not be loaded" with the reason and Try again; both with a way back.
 */
export function LoadFailure(props: {
  thing: string;
  missing: boolean;
  error: Error | null;
  onRetry: () => void;
  retrying: boolean;
  back: { href: string; label: string };
}) {
  const { thing, missing, error, onRetry, retrying, back } = props;
  return (
    <div className="py-10 text-center">
      {missing ? (
        <>
          <h1 className="text-3xl font-bold">{thing} not found</h1>
          <p className="mt-2 text-muted-foreground">This {thing.toLowerCase()} may have been removed, or the link is not quite right.</p>
        </>
      ) : (
        <div role="alert">
          <h1 className="text-3xl font-bold">{thing} could not be loaded</h1>
          <p className="mt-2 text-muted-foreground">Something went wrong ({error?.message}). Check your connection and try again.</p>
          <Button variant="outline" className="mt-4" onClick={onRetry} disabled={retrying}>
            <RefreshCw className="h-4 w-4" aria-hidden />
            Try again
          </Button>
        </div>
      )}
      <Link href={back.href} className={buttonClass('primary', 'mt-6')}>
        <ArrowLeft className="h-4 w-4" aria-hidden />
        {back.label}
      </Link>
    </div>
  );
}
