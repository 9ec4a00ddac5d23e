import * as DialogPrimitive from '@radix-ui/react-dialog';
import { X } from 'lucide-react';
import type { ReactNode } from 'react';

/** A modal dialog with a title, styled like every other overlay. */
export function Dialog(props: { open: boolean; onOpenChange: (open: boolean) => void; title: string; description?: string; children: ReactNode; wide?: boolean }) {
  return (
    <DialogPrimitive.Root open={props.open} onOpenChange={props.onOpenChange}>
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay className="fixed inset-0 z-50 bg-black/50" />
        <DialogPrimitive.Content
          className={`fixed left-1/2 top-1/2 z-50 max-h-[90vh] w-[calc(100%-2rem)] -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-lg border border-border bg-card p-4 shadow-xl sm:p-6 ${props.wide ? 'max-w-3xl' : 'max-w-lg'}`}
        >
          <DialogPrimitive.Title className="pr-12 text-xl font-bold">{props.title}</DialogPrimitive.Title>
          {props.description ? (
            <DialogPrimitive.Description className="mt-1 text-sm text-muted-foreground">{props.description}</DialogPrimitive.Description>
          ) : (
            <DialogPrimitive.Description className="sr-only">{props.title}</DialogPrimitive.Description>
          )}
          <div className="mt-4">{props.children}</div>
          <DialogPrimitive.Close aria-label="Close" className="absolute right-3 top-3 inline-flex h-11 w-11 items-center justify-center rounded-lg hover:bg-muted">
            <X className="h-5 w-5" aria-hidden />
          </DialogPrimitive.Close>
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}
