import * as Switch from '@radix-ui/react-switch';
import { Eye, ShieldCheck } from 'lucide-react';
import { useEffect, useId, useLayoutEffect, useRef, useState } from 'react';
import { useInterfaceMode } from '../auth/interface-mode.ts';

const PANEL_WIDTH = 256;
const EDGE = 16;

/**
 * The admin's 'Interface Mode' control (spec section 2): a round button in the header that opens
 * the panel with the User/Admin switch on demand. It lives in the header's flow, so it covers no
 * page content, and the header sits below every dialog's backdrop.
 */
export function InterfaceModeControl() {
  const [mode, setMode] = useInterfaceMode();
  const admin = mode === 'admin';
  const [open, setOpen] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const switchRef = useRef<HTMLButtonElement>(null);
  const panelId = useId();
  // The panel's left edge, from the button's: right-aligned with it, but never off the screen.
  const [left, setLeft] = useState<number | null>(null);

  useLayoutEffect(() => {
    if (!open) return;
    const place = () => {
      const button = buttonRef.current?.getBoundingClientRect();
      if (!button) return;
      const width = Math.min(PANEL_WIDTH, window.innerWidth - 2 * EDGE);
      const x = Math.min(Math.max(EDGE, button.right - width), window.innerWidth - EDGE - width);
      setLeft(x - button.left);
    };
    place();
    window.addEventListener('resize', place);
    return () => window.removeEventListener('resize', place);
  }, [open]);

  // Open: focus the switch; a press outside or Escape closes (Escape hands focus back to the button).
  useEffect(() => {
    if (!open) return;
    switchRef.current?.focus();
    const onPointerDown = (e: PointerEvent) => {
      if (!rootRef.current?.contains(e.target as Node)) setOpen(false);
    };
    const onKeyDown = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      setOpen(false);
      buttonRef.current?.focus();
    };
    document.addEventListener('pointerdown', onPointerDown);
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('pointerdown', onPointerDown);
      document.removeEventListener('keydown', onKeyDown);
    };
  }, [open]);

  const label = admin ? 'Admin Interface' : 'User Interface';
  const Icon = admin ? ShieldCheck : Eye;
  return (
    <div
      ref={rootRef}
      className="relative"
      onBlur={(e) => {
        // Tabbing out of the panel closes it.
        if (open && e.relatedTarget && !e.currentTarget.contains(e.relatedTarget as Node)) setOpen(false);
      }}
    >
      <button
        ref={buttonRef}
        type="button"
        aria-label={`Interface Mode: ${label}`}
        title={`Interface Mode: ${label}`}
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        onClick={() => setOpen((o) => !o)}
        className={`inline-flex h-11 w-11 shrink-0 items-center justify-center rounded-full border transition-colors duration-150 ${
          admin ? 'border-primary/40 bg-primary/10 text-primary hover:bg-primary/20' : 'border-border bg-card text-muted-foreground hover:bg-muted'
        } ${open ? 'ring-2 ring-ring' : ''}`}
      >
        <Icon className="h-5 w-5" aria-hidden />
      </button>
      {open && (
        <div
          id={panelId}
          role="dialog"
          aria-label="Interface Mode"
          style={{ left: left ?? undefined, width: `min(${PANEL_WIDTH}px, calc(100vw - ${2 * EDGE}px))` }}
          className="absolute top-full z-10 mt-2 rounded-lg border border-border bg-card p-3 text-foreground shadow-lg"
        >
          <p className="text-sm font-semibold">Interface Mode</p>
          <div className="mt-2 flex items-center gap-2 text-sm">
            <span aria-hidden>User</span>
            <Switch.Root
              ref={switchRef}
              checked={admin}
              onCheckedChange={(on) => setMode(on ? 'admin' : 'user')}
              aria-label="Admin mode"
              className="relative inline-flex h-6 w-11 shrink-0 items-center rounded-full bg-muted-foreground/40 data-[state=checked]:bg-primary"
            >
              <Switch.Thumb className="block h-5 w-5 translate-x-0.5 rounded-full bg-white shadow transition-transform duration-200 data-[state=checked]:translate-x-[22px]" />
            </Switch.Root>
            <span aria-hidden>Admin</span>
          </div>
          <span
            className={`mt-2 inline-block rounded-full px-2 py-0.5 text-xs font-semibold ${admin ? 'bg-primary text-primary-foreground' : 'bg-muted text-foreground'}`}
          >
            {label}
          </span>
          <p className="mt-1 text-xs text-muted-foreground">Toggle to test both experiences</p>
        </div>
      )}
    </div>
  );
}
