import * as Switch from '@radix-ui/react-switch';
import { useInterfaceMode } from '../auth/interface-mode.ts';

/** Floating 'Interface Mode' panel, for admins only: switch between the admin and user views. */
export function InterfaceModePanel() {
  const [mode, setMode] = useInterfaceMode();
  const admin = mode === 'admin';
  return (
    <aside aria-label="Interface Mode" className="fixed bottom-4 left-4 z-50 w-60 rounded-lg border border-border bg-card p-3 shadow-lg">
      <p className="text-sm font-semibold">Interface Mode</p>
      <div className="mt-2 flex items-center gap-2 text-sm">
        <span id="mode-user-label">User</span>
        <Switch.Root
          checked={admin}
          onCheckedChange={(on) => setMode(on ? 'admin' : 'user')}
          aria-label="Admin mode"
          className="relative h-6 w-11 rounded-full bg-muted data-[state=checked]:bg-primary"
        >
          <Switch.Thumb className="block h-5 w-5 translate-x-0.5 rounded-full bg-white shadow transition-transform duration-200 data-[state=checked]:translate-x-[22px]" />
        </Switch.Root>
        <span>Admin</span>
      </div>
      <span className={`mt-2 inline-block rounded-full px-2 py-0.5 text-xs font-semibold ${admin ? 'bg-primary text-primary-foreground' : 'bg-muted text-foreground'}`}>
        {admin ? 'Admin Interface' : 'User Interface'}
      </span>
      <p className="mt-1 text-xs text-muted-foreground">Toggle to test both experiences</p>
    </aside>
  );
}
