import { z } from 'zod';

/** `vendor` runs one or more vendors' stalls and shop; admins do everything. */
export const Role = z.enum(['user', 'vendor', 'admin']);
export type Role = z.infer<typeof Role>;

/** GET /api/auth/user: the signed-in user (spec section 3, plus role for the admin switch). */
export const AuthUser = z.object({
  id: z.string(),
  email: z.string(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  profileImageUrl: z.string().nullable(),
  points: z.number().int(),
  role: Role,
});
export type AuthUser = z.infer<typeof AuthUser>;

const email = z.email('Enter a valid email address').max(254, 'Email is too long');
const password = z
  .string()
  .min(8, 'Password must be at least 8 characters')
  .max(128, 'Password must be at most 128 characters');
const name = (label: string) => z.string().trim().min(1, `${label} is required`).max(80, `${label} is too long`);

export const SignupBody = z.object({
  email,
  password,
  firstName: name('First name'),
  lastName: name('Last name'),
});
export type SignupBody = z.infer<typeof SignupBody>;

export const LoginBody = z.object({
  email: z.string().min(1, 'Email is required').max(254, 'Email is too long'),
  password: z.string().min(1, 'Password is required').max(128, 'Password must be at most 128 characters'),
});
export type LoginBody = z.infer<typeof LoginBody>;

export const LoginQuery = z.object({ returnTo: z.string().max(2000).optional() });

/** Only same-site relative paths are allowed as a post-login destination. */
export function safeReturnTo(value: string | undefined | null): string {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return '/';
  if (value.startsWith('/api/login') || value.startsWith('/api/logout')) return '/';
  return value;
}

export const OkResponse = z.object({ ok: z.literal(true) });
