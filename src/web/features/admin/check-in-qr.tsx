import { PrintableQrButton } from './printable-qr.tsx';

/**
 * For admins on an event page: the event's signed check-in code to show, print or download.
 * Attendees scan it while the event runs (from 1 hour before the start to its end).
 */
export function CheckInQrButton({ eventId, title }: { eventId: string; title: string }) {
  return (
    <PrintableQrButton
      kind="event"
      id={eventId}
      label="Check-in QR code"
      name={title}
      description="Print it for the venue: attendees scan it from 1 hour before the start until the end to check in and earn points."
      thing="the event"
      testId="check-in-qr"
    />
  );
}
