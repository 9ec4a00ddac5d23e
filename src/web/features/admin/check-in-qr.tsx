import { Download, Printer, QrCode } from 'lucide-react';
import { useState } from 'react';
import { Button, buttonClass } from '../../components/ui/button.tsx';
import { Dialog } from '../../components/ui/dialog.tsx';
import { toast } from '../../components/ui/use-toast.ts';
import { useAuth } from '../auth/auth.queries.ts';

/** The server signs a fresh code on every request; all of them stay valid (no expiry given). */
export const checkInQrUrl = (eventId: string, format: 'svg' | 'png') => `/api/admin/qr/event/${encodeURIComponent(eventId)}?format=${format}`;

/**
 * For admins on an event page: the event's signed check-in code to show, print or download.
 * Attendees scan it while the event runs (from 1 hour before the start to its end).
 */
export function CheckInQrButton({ eventId, title }: { eventId: string; title: string }) {
  const { isAdmin } = useAuth();
  const [open, setOpen] = useState(false);
  const [failed, setFailed] = useState(false);
  if (!isAdmin) return null;

  const print = () => {
    const w = window.open(checkInQrUrl(eventId, 'svg'), '_blank');
    if (!w) {
      toast({ title: 'Print window blocked', description: 'Allow pop-ups for this site, or download the PNG and print it.', variant: 'destructive' });
      return;
    }
    w.addEventListener('load', () => w.print(), { once: true });
  };

  return (
    <>
      <Button variant="outline" onClick={() => setOpen(true)} aria-haspopup="dialog">
        <QrCode className="h-4 w-4" aria-hidden />
        Check-in QR code
      </Button>
      <Dialog
        open={open}
        onOpenChange={(next) => {
          setOpen(next);
          setFailed(false);
        }}
        title="Check-in QR code"
        description="Print it for the venue: attendees scan it from 1 hour before the start until the end to check in and earn points."
      >
        {open && !failed && (
          <img
            src={checkInQrUrl(eventId, 'svg')}
            alt={`Check-in QR code for ${title}`}
            data-testid="check-in-qr"
            className="mx-auto aspect-square w-full max-w-xs rounded-lg border border-border bg-white"
            onError={() => setFailed(true)}
          />
        )}
        {failed && (
          <p role="alert" className="text-sm text-destructive">
            The code could not be created. Check that the event still exists and try again.
          </p>
        )}
        <div className="mt-4 flex flex-wrap justify-end gap-2">
          <a href={checkInQrUrl(eventId, 'png')} download className={buttonClass('outline')}>
            <Download className="h-4 w-4" aria-hidden />
            Download PNG
          </a>
          <Button onClick={print}>
            <Printer className="h-4 w-4" aria-hidden />
            Print
          </Button>
        </div>
      </Dialog>
    </>
  );
}
