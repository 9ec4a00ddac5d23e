import { Download, Printer, QrCode } from 'lucide-react';
import { useState } from 'react';
import { Button, buttonClass } from '../../components/ui/button.tsx';
import { Dialog } from '../../components/ui/dialog.tsx';
import { toast } from '../../components/ui/use-toast.ts';
import { useAuth } from '../auth/auth.queries.ts';

/** The server signs a fresh code on every request; all of them stay valid (no expiry given). */
export const printableQrUrl = (kind: 'event' | 'vendor' | 'node', id: string, format: 'svg' | 'png') =>
  `/api/admin/qr/${kind}/${encodeURIComponent(id)}?format=${format}`;

export interface PrintableQrProps {
  kind: 'event' | 'vendor' | 'node';
  id: string;
  /** The button's and the dialog's title, e.g. 'Check-in QR code'. */
  label: string;
  /** What the code is of, for the image's alt text. */
  name: string;
  /** Where it goes and what scanning it does. */
  description: string;
  /** What to check when the server cannot make it ('the event', 'the vendor'). */
  thing: string;
  testId: string;
}

/** For admins: a signed code (event check-in, vendor visit ...) to show, print or download. */
export function PrintableQrButton({ kind, id, label, name, description, thing, testId }: PrintableQrProps) {
  const { isAdmin } = useAuth();
  const [open, setOpen] = useState(false);
  const [failed, setFailed] = useState(false);
  if (!isAdmin) return null;

  const print = () => {
    const w = window.open(printableQrUrl(kind, id, 'svg'), '_blank');
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
        {label}
      </Button>
      <Dialog
        open={open}
        onOpenChange={(next) => {
          setOpen(next);
          setFailed(false);
        }}
        title={label}
        description={description}
      >
        {open && !failed && (
          <img
            src={printableQrUrl(kind, id, 'svg')}
            alt={`${label.replace(/ code$/, '')} code for ${name}`}
            data-testid={testId}
            className="mx-auto aspect-square w-full max-w-xs rounded-lg border border-border bg-white"
            onError={() => setFailed(true)}
          />
        )}
        {failed && (
          <p role="alert" className="text-sm text-destructive">
            The code could not be created. Check that {thing} still exists and try again.
          </p>
        )}
        <div className="mt-4 flex flex-wrap justify-end gap-2">
          <a href={printableQrUrl(kind, id, 'png')} download className={buttonClass('outline')}>
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
