import { useId, useState, type FormEvent } from 'react';
import { useLocation } from 'wouter';
import { VENDOR_CATEGORY_IDS, VENDOR_CATEGORY_NAMES, type VendorCategory, type VendorDetail } from '../../../contract/vendors.ts';
import { Button } from '../../components/ui/button.tsx';
import { Dialog } from '../../components/ui/dialog.tsx';
import { toast } from '../../components/ui/use-toast.ts';
import { ApiError } from '../../lib/api-client.ts';
import { useCreateVendor, useOwnerLookup, useUpdateVendor } from './vendors.queries.ts';
import { useDebounced } from './use-debounced.ts';

const input = 'min-h-11 w-full rounded-lg border border-border bg-background px-3 text-sm focus:outline-none focus-visible:ring-2 focus-visible:ring-[var(--ring)]';
const label = 'grid gap-1 text-sm font-medium';

interface Fields {
  name: string;
  category: VendorCategory;
  description: string;
  location: string;
  booth: string;
  hours: string;
  products: string;
  featured: boolean;
  ownerEmail: string;
}

const empty: Fields = { name: '', category: 'food_beverage', description: '', location: '', booth: '', hours: '', products: '', featured: false, ownerEmail: '' };
const fromVendor = (v: VendorDetail): Fields => ({
  name: v.name,
  category: v.category,
  description: v.description,
  location: v.location,
  booth: v.booth,
  hours: v.hours,
  products: v.products.join(', '),
  featured: v.featured,
  ownerEmail: v.owner?.email ?? '',
});
/** 'Sourdough, Galettes' -> ['Sourdough', 'Galettes'], without blanks or repeats. */
export const parseTags = (s: string) => [...new Set(s.split(',').map((x) => x.trim()).filter(Boolean))];
const messageOf = (err: unknown) => (err instanceof ApiError ? (err.serverMessage ?? err.message) : err instanceof Error ? err.message : 'Something went wrong');

/** Admin: pick the owning account by email, with suggestions from the accounts that match. */
function OwnerField({ value, onChange }: { value: string; onChange: (v: string) => void }) {
  const listId = useId();
  const hintId = useId();
  const lookup = useOwnerLookup(useDebounced(value, 250));
  return (
    <div className="grid gap-1">
      <label className={label}>
        Owner email (optional)
        <input className={input} type="email" list={listId} value={value} onChange={(e) => onChange(e.target.value)} autoComplete="off" placeholder="owner@example.org" aria-describedby={hintId} />
      </label>
      <datalist id={listId}>
        {(lookup.data?.users ?? []).map((u) => (
          <option key={u.id} value={u.email}>
            {u.name ? `${u.name} (${u.role})` : u.role}
          </option>
        ))}
      </datalist>
      <span id={hintId} className="text-xs text-muted-foreground">
        The account gets the vendor role and can edit this vendor.
      </span>
    </div>
  );
}

/**
 * Adds a vendor (admins; with an owner chosen by email) or edits one (its owner or an admin).
 * Only admins see the featured switch.
 */
export function VendorFormDialog(props: { open: boolean; onOpenChange: (o: boolean) => void; isAdmin: boolean; vendor?: VendorDetail }) {
  const { open, onOpenChange, vendor } = props;
  // The dialog's content mounts on each opening, so the form starts from the vendor every time.
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={vendor ? 'Edit vendor' : 'Add vendor'} description={vendor ? undefined : 'List a local vendor and, if you like, give it an owner.'}>
      <VendorForm {...props} />
    </Dialog>
  );
}

function VendorForm({ onOpenChange, isAdmin, vendor }: { onOpenChange: (o: boolean) => void; isAdmin: boolean; vendor?: VendorDetail }) {
  const [f, setF] = useState<Fields>(vendor ? fromVendor(vendor) : empty);
  const [error, setError] = useState<string | null>(null);
  const create = useCreateVendor();
  const update = useUpdateVendor(vendor?.id ?? '');
  const [, navigate] = useLocation();
  const pending = create.isPending || update.isPending;

  const set = <K extends keyof Fields>(k: K, v: Fields[K]) => setF((old) => ({ ...old, [k]: v }));

  async function submit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    if (!f.name.trim()) return setError('Name is required');
    const common = { name: f.name.trim(), category: f.category, description: f.description.trim(), location: f.location.trim(), booth: f.booth.trim(), hours: f.hours.trim(), products: parseTags(f.products) };
    try {
      if (vendor) {
        const email = f.ownerEmail.trim();
        const ownerChange = isAdmin && email.toLowerCase() !== (vendor.owner?.email ?? '').toLowerCase() ? (email ? { ownerEmail: email } : { ownerId: null }) : {};
        await update.mutateAsync({ ...common, ...(isAdmin ? { featured: f.featured } : {}), ...ownerChange });
        toast({ title: 'Vendor updated', description: `${common.name} was saved.` });
        onOpenChange(false);
      } else {
        const created = await create.mutateAsync({ ...common, featured: f.featured, ...(f.ownerEmail.trim() ? { ownerEmail: f.ownerEmail.trim() } : {}) });
        toast({ title: 'Vendor added', description: `${created.name} is now listed.` });
        onOpenChange(false);
        navigate(`/vendors/${created.id}`);
      }
    } catch (err) {
      setError(messageOf(err));
    }
  }

  return (
    <form className="grid gap-3" onSubmit={(e) => void submit(e)} noValidate>
      <label className={label}>
        Name
        <input className={input} value={f.name} onChange={(e) => set('name', e.target.value)} required maxLength={100} />
      </label>
      <label className={label}>
        Category
        <select className={input} value={f.category} onChange={(e) => set('category', e.target.value as VendorCategory)}>
          {VENDOR_CATEGORY_IDS.map((id) => (
            <option key={id} value={id}>
              {VENDOR_CATEGORY_NAMES[id]}
            </option>
          ))}
        </select>
      </label>
      <label className={label}>
        Description
        <textarea className={`${input} min-h-24 py-2`} value={f.description} onChange={(e) => set('description', e.target.value)} maxLength={2000} />
      </label>
      <div className="grid gap-3 sm:grid-cols-2">
        <label className={label}>
          Location
          <input className={input} value={f.location} onChange={(e) => set('location', e.target.value)} maxLength={200} placeholder="Hawthorne, Portland" />
        </label>
        <label className={label}>
          Booth
          <input className={input} value={f.booth} onChange={(e) => set('booth', e.target.value)} maxLength={60} placeholder="Stall 14" />
        </label>
      </div>
      <label className={label}>
        Hours
        <input className={input} value={f.hours} onChange={(e) => set('hours', e.target.value)} maxLength={120} placeholder="Sat 9am–2pm" />
      </label>
      <label className={label}>
        Products (comma separated)
        <input className={input} value={f.products} onChange={(e) => set('products', e.target.value)} placeholder="Sourdough, Galettes, Cookies" />
      </label>
      {isAdmin && <OwnerField value={f.ownerEmail} onChange={(v) => set('ownerEmail', v)} />}
      {isAdmin && (
        <label className="flex min-h-11 items-center gap-3 text-sm font-medium">
          <input type="checkbox" className="h-5 w-5" checked={f.featured} onChange={(e) => set('featured', e.target.checked)} />
          Featured vendor
        </label>
      )}
      {error && (
        <p role="alert" className="text-sm text-destructive">
          {error}
        </p>
      )}
      <div className="mt-2 flex justify-end gap-2">
        <Button variant="outline" onClick={() => onOpenChange(false)}>
          Cancel
        </Button>
        <Button type="submit" disabled={pending}>
          {vendor ? 'Save' : 'Add vendor'}
        </Button>
      </div>
    </form>
  );
}
