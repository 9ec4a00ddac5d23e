import { PrintableQrButton } from '../admin/printable-qr.tsx';

/** For admins on a vendor page: the vendor's signed visit code to print for its booth (each visitor is paid once). */
export function VendorQrButton({ vendorId, name }: { vendorId: string; name: string }) {
  return (
    <PrintableQrButton
      kind="vendor"
      id={vendorId}
      label="Visit QR code"
      name={name}
      description="Print it for the booth: visitors scan it to earn vendor-visit points, once each."
      thing="the vendor"
      testId="vendor-qr"
    />
  );
}
