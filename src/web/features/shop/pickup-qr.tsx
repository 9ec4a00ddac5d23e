import QRCode from 'qrcode';
import { useEffect, useState } from 'react';

/** The pickup code as a QR code the vendor scans at the booth (drawn in the browser, no request). */
export function PickupQr({ code }: { code: string }) {
  const [src, setSrc] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    QRCode.toDataURL(code, { errorCorrectionLevel: 'M', margin: 2, width: 256 })
      .then((url) => live && setSrc(url))
      .catch(() => live && setFailed(true));
    return () => {
      live = false;
    };
  }, [code]);
  if (failed) return <p className="text-sm text-muted-foreground">The QR code could not be drawn; show the code above instead.</p>;
  if (!src) return <div className="mx-auto aspect-square w-full max-w-[14rem] animate-pulse rounded-lg bg-muted" aria-hidden />;
  return (
    <img
      src={src}
      alt={`QR code of pickup code ${code}`}
      data-testid="pickup-qr"
      width={256}
      height={256}
      className="mx-auto aspect-square w-full max-w-[14rem] rounded-lg border border-border bg-white p-1"
    />
  );
}
