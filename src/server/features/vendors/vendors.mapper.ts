import type { Product } from '../../../contract/shop.ts';
import type { EventVendorsResponse, Vendor, VendorAppearance } from '../../../contract/vendors.ts';
import type { products } from '../shop/shop.table.ts';
import type { VendorRow } from './vendors.table.ts';

/** A vendor row as the wire shows it (`productTags` are the spec's `products`). */
export function toVendor(row: VendorRow): Vendor {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    category: row.category,
    location: row.location,
    booth: row.booth,
    hours: row.hours,
    rating: row.rating === null ? null : Math.round(row.rating * 10) / 10,
    ratingCount: row.ratingCount,
    products: row.productTags,
    featured: row.featured,
    latitude: row.latitude,
    longitude: row.longitude,
    isDemo: row.isDemo,
  };
}

/** A shop product of this vendor, in the shop's shared contract. */
export function toProduct(row: typeof products.$inferSelect, vendorName: string): Product {
  return {
    id: row.id,
    name: row.name,
    price: Math.round(row.priceCents) / 100,
    rating: row.rating,
    description: row.description,
    category: row.category,
    vendor: row.vendorId,
    vendorName,
    inStock: row.stock > 0,
    stock: row.stock,
  };
}

export function toAppearance(row: {
  id: string;
  booth: string;
  eventId: string;
  title: string;
  startDate: Date;
  endDate: Date;
  timeZone: string;
  allDay: boolean;
  venueName: string;
}): VendorAppearance {
  return {
    id: row.id,
    eventId: row.eventId,
    eventTitle: row.title,
    startDate: row.startDate.toISOString(),
    endDate: row.endDate.toISOString(),
    timeZone: row.timeZone,
    allDay: row.allDay,
    venue: row.venueName,
    booth: row.booth,
  };
}

export function toEventVendor(row: { id: string; name: string; category: VendorRow['category']; productTags: string[]; booth: string; usualBooth: string }): EventVendorsResponse['vendors'][number] {
  return { id: row.id, name: row.name, category: row.category, booth: row.booth || row.usualBooth, products: row.productTags };
}
