import { Pencil, Plus } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import type { Product } from '../../../contract/shop.ts';
import { Button } from '../../components/ui/button.tsx';
import { Dialog } from '../../components/ui/dialog.tsx';
import { toast } from '../../components/ui/use-toast.ts';
import { formatPrice, shopErrorMessage, useSaveProduct, useVendorProducts, type ProductInput } from './shop.queries.ts';

const field = 'min-h-11 w-full rounded-lg border border-border bg-background px-3 text-sm';

function ProductDialog(props: { open: boolean; onOpenChange: (o: boolean) => void; product: Product | null; vendors: { id: string; name: string }[]; categories: string[] }) {
  const { product, vendors } = props;
  const id = useId();
  const save = useSaveProduct();
  const [form, setForm] = useState(() => ({
    vendorId: product?.vendor ?? vendors[0]?.id ?? '',
    name: product?.name ?? '',
    price: product ? String(product.price) : '',
    stock: product ? String(product.stock) : '0',
    category: product?.category ?? '',
    description: product?.description ?? '',
  }));
  const [problem, setProblem] = useState<string | null>(null);
  const set = (k: keyof typeof form) => (e: { target: { value: string } }) => setForm((f) => ({ ...f, [k]: e.target.value }));

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setProblem(null);
    const body: ProductInput = { vendorId: form.vendorId, name: form.name.trim(), price: Number(form.price), stock: Number(form.stock), category: form.category.trim(), description: form.description.trim() };
    if (!body.name || !body.category || form.price.trim() === '' || !Number.isFinite(body.price) || !Number.isInteger(body.stock)) {
      setProblem('Give a name, a category, a price and a whole number in stock.');
      return;
    }
    try {
      const saved = await save.mutateAsync({ id: product?.id ?? null, body });
      toast({ title: product ? 'Product saved' : 'Product added', description: saved.name });
      props.onOpenChange(false);
    } catch (err) {
      setProblem(shopErrorMessage(err));
    }
  };

  return (
    <Dialog open={props.open} onOpenChange={props.onOpenChange} title={product ? `Edit ${product.name}` : 'Add a product'}>
      <form onSubmit={(e) => void submit(e)} className="flex flex-col gap-3">
        {!product && vendors.length > 1 && (
          <label className="flex flex-col gap-1 text-sm font-medium">
            Vendor
            <select value={form.vendorId} onChange={set('vendorId')} className={field}>
              {vendors.map((v) => (
                <option key={v.id} value={v.id}>
                  {v.name}
                </option>
              ))}
            </select>
          </label>
        )}
        <label className="flex flex-col gap-1 text-sm font-medium">
          Name
          <input value={form.name} onChange={set('name')} maxLength={120} required className={field} />
        </label>
        <div className="grid grid-cols-2 gap-3">
          <label className="flex flex-col gap-1 text-sm font-medium">
            Price ($)
            <input value={form.price} onChange={set('price')} inputMode="decimal" type="number" min={0} step="0.01" required className={field} />
          </label>
          <label className="flex flex-col gap-1 text-sm font-medium">
            In stock
            <input value={form.stock} onChange={set('stock')} type="number" min={0} step={1} required className={field} />
          </label>
        </div>
        <label className="flex flex-col gap-1 text-sm font-medium">
          Category
          <input value={form.category} onChange={set('category')} maxLength={60} required list={`${id}-categories`} className={field} />
          <datalist id={`${id}-categories`}>
            {props.categories.map((c) => (
              <option key={c} value={c} />
            ))}
          </datalist>
        </label>
        <label className="flex flex-col gap-1 text-sm font-medium">
          Description
          <textarea value={form.description} onChange={set('description')} maxLength={2000} rows={3} className="w-full rounded-lg border border-border bg-background p-3 text-sm" />
        </label>
        {problem && (
          <p role="alert" className="text-sm text-destructive">
            {problem}
          </p>
        )}
        <div className="flex justify-end gap-2">
          <Button variant="outline" onClick={() => props.onOpenChange(false)}>
            Cancel
          </Button>
          <Button type="submit" disabled={save.isPending}>
            {product ? 'Save' : 'Add product'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

/** For vendors and admins: their products with price and stock, to add and edit (stock is what checkout reserves). */
export function VendorProducts() {
  const data = useVendorProducts();
  const [editing, setEditing] = useState<{ product: Product | null } | null>(null);
  return (
    <section aria-labelledby="vendor-products-heading" className="rounded-lg border border-border bg-card p-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="vendor-products-heading" className="text-lg font-semibold">
          Your products
        </h2>
        {data.data && data.data.vendors.length > 0 && (
          <Button variant="outline" onClick={() => setEditing({ product: null })}>
            <Plus className="h-4 w-4" aria-hidden />
            Add product
          </Button>
        )}
      </div>
      {data.isPending ? (
        <div role="status" aria-label="Loading your products" className="mt-3 h-16 animate-pulse rounded-lg bg-muted" />
      ) : data.isError ? (
        <p role="alert" className="mt-2 text-sm text-destructive">
          Your products could not be loaded. {shopErrorMessage(data.error)}
        </p>
      ) : data.data.vendors.length === 0 ? (
        <p className="mt-2 text-sm text-muted-foreground">Your account does not run a vendor yet. Ask an admin to link it to your vendor.</p>
      ) : data.data.products.length === 0 ? (
        <p className="mt-2 text-sm text-muted-foreground">No products yet. Add one to sell it in the marketplace.</p>
      ) : (
        <ul className="mt-2 divide-y divide-border">
          {data.data.products.map((p) => (
            <li key={p.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
              <div className="min-w-0">
                <p className="font-semibold">{p.name}</p>
                <p className="text-xs text-muted-foreground">
                  {p.vendorName} · {p.category} · {formatPrice(p.price)} · <span className={p.inStock ? '' : 'font-semibold text-destructive'}>{p.inStock ? `${p.stock} in stock` : 'Out of stock'}</span>
                </p>
              </div>
              <Button variant="ghost" onClick={() => setEditing({ product: p })} aria-label={`Edit ${p.name}`}>
                <Pencil className="h-4 w-4" aria-hidden />
                Edit
              </Button>
            </li>
          ))}
        </ul>
      )}
      {editing && data.data && (
        <ProductDialog key={editing.product?.id ?? 'new'} open onOpenChange={(o) => !o && setEditing(null)} product={editing.product} vendors={data.data.vendors} categories={[...new Set(data.data.products.map((p) => p.category))].sort()} />
      )}
    </section>
  );
}
