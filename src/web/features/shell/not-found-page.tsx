import { Link } from 'wouter';
import { buttonClass } from '../../components/ui/button.tsx';

/** 'Page Not Found': inside the shell when signed in (the router gives it a plain frame otherwise). */
export default function NotFoundPage() {
  return (
    <section aria-labelledby="not-found-heading" className="flex flex-col items-center gap-4 py-12 text-center">
      <p className="text-6xl font-bold text-primary">404</p>
      <h1 id="not-found-heading" className="text-3xl font-bold">
        Page Not Found
      </h1>
      <p className="text-muted-foreground">The page you are looking for does not exist or has moved.</p>
      <Link href="/" className={buttonClass('primary')}>
        Back to Townbeat
      </Link>
    </section>
  );
}
