import { Dialog } from '../../components/ui/dialog.tsx';
import { QrScanner } from './qr-scanner.tsx';

/**
 * The Discover page's 'Scan QR' modal (spec sections 2 and 4): Start/Stop Scanning with the
 * camera, then 'Scan Successful!' with 'Scan Another' and 'Close', or an error message. Closing
 * the dialog unmounts the scanner, which stops the camera.
 */
export function QrScannerModal({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title="Scan QR Code" description="Scan a Townbeat code at an event, a vendor booth or a quest stop to earn points.">
      <QrScanner onClose={() => onOpenChange(false)} />
    </Dialog>
  );
}
