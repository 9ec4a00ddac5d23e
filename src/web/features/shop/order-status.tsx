import type { OrderStatus } from '../../../contract/shop.ts';
import { Chip } from '../../components/ui/chip.tsx';
import { formatCityTime } from '../../lib/city-time.ts';

const LABEL: Record<OrderStatus, { text: string; tone: 'accent' | 'success' | 'destructive' }> = {
  reserved: { text: 'Reserved: pay at pickup', tone: 'accent' },
  fulfilled: { text: 'Picked up', tone: 'success' },
  cancelled: { text: 'Cancelled', tone: 'destructive' },
};

/** An order's status as a chip. */
export function OrderStatusChip({ status }: { status: OrderStatus }) {
  return <Chip tone={LABEL[status].tone}>{LABEL[status].text}</Chip>;
}

/**
 * Date and time of an order in US format (spec: US date formats), on the city's clocks as event
 * times are (`useCityTimeZone()`), not the device's.
 */
export const formatOrderDate = (iso: string, timeZone: string | undefined) =>
  formatCityTime(iso, timeZone, { month: 'short', day: 'numeric', year: 'numeric', hour: 'numeric', minute: '2-digit' });
