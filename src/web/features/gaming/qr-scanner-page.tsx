import { QrScanner } from './qr-scanner.tsx';

/**
 * /qr-scanner (decisions section 2): the live camera scanner, plus a labelled demo that simulates
 * a 2-second scan of a personal sample code worth 15 points once.
 */
export default function QrScannerPage() {
  return (
    <section aria-labelledby="qr-heading" className="mx-auto max-w-xl">
      <h1 id="qr-heading" className="text-3xl font-bold">
        QR Scanner
      </h1>
      <p className="mt-1 mb-5 text-muted-foreground">Check in at events and collect points by scanning the Townbeat codes you find around town.</p>
      <QrScanner demo />
    </section>
  );
}
