import { z } from 'zod';
import { Product } from './shop.ts';

export const VENDOR_CATEGORY_IDS = ['food_beverage', 'arts_crafts', 'outdoor_gear', 'local_services'] as const;
export const VendorCategory = z.enum(VENDOR_CATEGORY_IDS);
export type VendorCategory = z.infer<typeof VendorCategory>;

/** The categories' display names, in the filter's order. */
export const VENDOR_CATEGORY_NAMES: Record<VendorCategory, string> = {
  food_beverage: 'Food & Beverage',
  arts_crafts: 'Arts & Crafts',
  outdoor_gear: 'Outdoor Gear',
  local_services: 'Local Services',
};

/** How many product tags a vendor card shows before '+N more' (spec section 2). */
export const CARD_PRODUCTS_SHOWN = 3;

/** A vendor (spec section 3): `products` is its list of product tags. */
export const Vendor = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  category: VendorCategory,
  location: z.string(),
  booth: z.string(),
  hours: z.string(),
  /** Average rating 0..5; null until rated. */
  rating: z.number().nullable(),
  ratingCount: z.number().int(),
  products: z.array(z.string()),
  featured: z.boolean(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  isDemo: z.boolean(),
});
export type Vendor = z.infer<typeof Vendor>;

export const VendorCategoryCount = z.object({ id: VendorCategory, name: z.string(), count: z.number().int() });
export type VendorCategoryCount = z.infer<typeof VendorCategoryCount>;

export const VendorListQuery = z.object({
  search: z.string().trim().max(100).optional(),
  /** A category id; 'all' (or none) lists every category. */
  category: z.union([VendorCategory, z.literal('all')]).optional(),
});
export type VendorListQuery = z.infer<typeof VendorListQuery>;

/**
 * GET /api/vendors (spec section 7). `categories` count the vendors matching the search in each
 * category; `featuredVendors` are the featured ones among `vendors`.
 */
export const VendorListResponse = z.object({
  vendors: z.array(Vendor),
  categories: z.array(VendorCategoryCount),
  featuredVendors: z.array(Vendor),
});
export type VendorListResponse = z.infer<typeof VendorListResponse>;

/** A vendor at an upcoming event. */
export const VendorAppearance = z.object({
  id: z.string(),
  eventId: z.string(),
  eventTitle: z.string(),
  startDate: z.string(),
  endDate: z.string(),
  timeZone: z.string(),
  allDay: z.boolean(),
  venue: z.string(),
  booth: z.string(),
});
export type VendorAppearance = z.infer<typeof VendorAppearance>;

/** GET /api/vendors/:id: the vendor with its products, upcoming appearances and the caller's relation to it. */
export const VendorDetail = Vendor.extend({
  productList: z.array(Product),
  appearances: z.array(VendorAppearance),
  followerCount: z.number().int(),
  isFollowing: z.boolean(),
  /** The caller owns it or is an admin: it may edit it and add appearances. */
  canEdit: z.boolean(),
  /** The owning account, shown only to those who may edit the vendor (null otherwise or when it has none). */
  owner: z.object({ id: z.string(), email: z.string(), name: z.string() }).nullable(),
});
export type VendorDetail = z.infer<typeof VendorDetail>;

export const VendorParams = z.object({ id: z.string().min(1).max(100) });

const text = (max: number) => z.string().trim().max(max);
const Tags = z.array(z.string().trim().min(1).max(40)).max(30);
const Coordinate = { latitude: z.number().min(-90).max(90).nullable().optional(), longitude: z.number().min(-180).max(180).nullable().optional() };

/** Fields an owner or admin may set on a vendor. */
export const VendorFields = z.object({
  name: text(100).min(1, 'name is required'),
  description: text(2000).default(''),
  category: VendorCategory,
  location: text(200).default(''),
  booth: text(60).default(''),
  hours: text(120).default(''),
  products: Tags.default([]),
  ...Coordinate,
});

/**
 * POST /api/vendors (admin). The owning account by `ownerId` or by `ownerEmail` (either, or
 * none); it gets the `vendor` role.
 */
export const CreateVendorBody = VendorFields.extend({
  featured: z.boolean().default(false),
  ownerId: z.uuid('ownerId must be an account id').nullable().optional(),
  ownerEmail: z.email('ownerEmail must be an email address').max(254).optional(),
});
export type CreateVendorBody = z.input<typeof CreateVendorBody>;

/** PATCH /api/vendors/:id: any of the fields; `featured` and the owner (`ownerId` or `ownerEmail`; null to clear) stay with admins. */
export const UpdateVendorBody = z
  .object({
    name: text(100).min(1, 'name is required'),
    description: text(2000),
    category: VendorCategory,
    location: text(200),
    booth: text(60),
    hours: text(120),
    products: Tags,
    ...Coordinate,
    featured: z.boolean(),
    ownerId: z.uuid('ownerId must be an account id').nullable(),
    ownerEmail: z.email('ownerEmail must be an email address').max(254),
  })
  .partial();
export type UpdateVendorBody = z.input<typeof UpdateVendorBody>;

export const AddAppearanceBody = z.object({ eventId: z.uuid('eventId must be an event id'), booth: text(60).default('') });
export type AddAppearanceBody = z.input<typeof AddAppearanceBody>;

export const FollowResponse = z.object({ isFollowing: z.boolean(), followerCount: z.number().int() });
export type FollowResponse = z.infer<typeof FollowResponse>;

/** GET /api/events/:id/vendors: "Who's here". */
export const EventVendor = z.object({
  id: z.string(),
  name: z.string(),
  category: VendorCategory,
  booth: z.string(),
  products: z.array(z.string()),
});
export const EventVendorsResponse = z.object({ vendors: z.array(EventVendor) });
export type EventVendorsResponse = z.infer<typeof EventVendorsResponse>;

/** GET /api/vendors/owners?email= (admin): an account to make a vendor's owner. */
export const OwnerLookupQuery = z.object({ email: z.string().trim().min(1).max(254) });
export const OwnerCandidate = z.object({ id: z.string(), email: z.string(), name: z.string(), role: z.string() });
export const OwnerLookupResponse = z.object({ users: z.array(OwnerCandidate) });
export type OwnerLookupResponse = z.infer<typeof OwnerLookupResponse>;
