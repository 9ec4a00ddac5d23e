import { Dialog } from '../../components/ui/dialog.tsx';
import { useAuth } from '../auth/auth.queries.ts';

/** 'Your Community Profile': who you are and your points. Badges and stats join with gamification. */
export function ProfileDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (o: boolean) => void }) {
  const { user } = useAuth();
  if (!user) return null;
  const fullName = [user.firstName, user.lastName].filter(Boolean).join(' ');
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title="Your Community Profile">
      <div className="flex items-center gap-4">
        <div className="flex h-16 w-16 items-center justify-center overflow-hidden rounded-full bg-primary text-2xl font-bold text-primary-foreground">
          {user.profileImageUrl ? <img src={user.profileImageUrl} alt="" className="h-full w-full object-cover" /> : (user.firstName?.[0] ?? user.email[0] ?? '?').toUpperCase()}
        </div>
        <div>
          <p className="text-lg font-semibold">{fullName || user.email}</p>
          <p className="text-sm text-muted-foreground">Event Explorer</p>
        </div>
      </div>
      <div className="mt-4 rounded-lg bg-accent-soft p-4">
        <p className="text-sm text-muted-foreground">Discovery Points</p>
        <p className="text-3xl font-bold text-accent">{user.points}</p>
      </div>
    </Dialog>
  );
}
