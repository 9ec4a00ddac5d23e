import { Dialog } from '../../components/ui/dialog.tsx';
import { useAuth } from '../auth/auth.queries.ts';

/** The 'My Events' overlay: the admin overview for admins, the user's own events otherwise. */
export function AdminOverlay({ open, onOpenChange }: { open: boolean; onOpenChange: (o: boolean) => void }) {
  const { isAdmin } = useAuth();
  if (!isAdmin) {
    return (
      <Dialog open={open} onOpenChange={onOpenChange} title="My Events">
        <p className="text-muted-foreground">Saving events is not available yet. Events you favourite will be listed here.</p>
      </Dialog>
    );
  }
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title="Admin Dashboard" wide>
      <p className="text-muted-foreground">Event review is not available yet: it arrives with event ingestion.</p>
    </Dialog>
  );
}
