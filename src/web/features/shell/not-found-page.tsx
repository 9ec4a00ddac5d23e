import { Link } from 'wouter';
import { buttonClass } from '../../components/ui/button.tsx';

export default function NotFoundPage() {
  return (
    <main className="flex min-h-screen flex-col items-center justify-center gap-4 p-6 text-center">
      <p className="text-6xl font-bold text-primary">404</p>
      <h1 className="text-3xl font-bold">Page Not Found</h1>
      <p className="text-muted-foreground">The page you are looking for does not exist or has moved.</p>
      <Link href="/" className={buttonClass('primary')}>
        Back to Townbeat
      </Link>
    </main>
  );
}
