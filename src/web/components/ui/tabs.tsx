import * as TabsPrimitive from '@radix-ui/react-tabs';
import type { ComponentPropsWithoutRef } from 'react';

/** Accessible tabs (Radix: arrow keys move between tabs, each panel labelled by its tab). */
export const Tabs = TabsPrimitive.Root;

/** The row of tabs; scrolls sideways on a narrow screen rather than wrapping. */
export function TabsList({ className = '', ...props }: ComponentPropsWithoutRef<typeof TabsPrimitive.List>) {
  return <TabsPrimitive.List className={`flex gap-1 overflow-x-auto rounded-lg border border-border bg-muted p-1 ${className}`} {...props} />;
}

/** One tab: 44 px tall, the selected one raised on the card colour. */
export function TabsTrigger({ className = '', ...props }: ComponentPropsWithoutRef<typeof TabsPrimitive.Trigger>) {
  return (
    <TabsPrimitive.Trigger
      className={`inline-flex min-h-11 shrink-0 items-center gap-2 whitespace-nowrap rounded-md px-3 text-sm font-semibold text-muted-foreground transition-colors duration-200 hover:text-foreground focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring data-[state=active]:bg-card data-[state=active]:text-foreground data-[state=active]:shadow-sm ${className}`}
      {...props}
    />
  );
}

/** A tab's panel. */
export function TabsContent({ className = '', ...props }: ComponentPropsWithoutRef<typeof TabsPrimitive.Content>) {
  return <TabsPrimitive.Content className={`mt-6 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring ${className}`} {...props} />;
}
