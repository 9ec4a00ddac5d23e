import * as TooltipPrimitive from '@radix-ui/react-tooltip';
import { createContext, useContext, type ReactNode } from 'react';

// Whether a shared TooltipProvider is above: the signed-in shell has one; the landing page's
// bundle does not carry Radix Tooltip at all, so a tooltip elsewhere brings its own provider.
const SharedProvider = createContext(false);

/** Tooltips open after 700 ms, and skip the delay for 300 ms after one closes (spec section 9). */
export function TooltipProvider({ children }: { children: ReactNode }) {
  return (
    <SharedProvider.Provider value={true}>
      <TooltipPrimitive.Provider delayDuration={700} skipDelayDuration={300}>
        {children}
      </TooltipPrimitive.Provider>
    </SharedProvider.Provider>
  );
}

export function Tooltip({ content, children }: { content: ReactNode; children: ReactNode }) {
  const shared = useContext(SharedProvider);
  const tooltip = (
    <TooltipPrimitive.Root>
      <TooltipPrimitive.Trigger asChild>{children}</TooltipPrimitive.Trigger>
      <TooltipPrimitive.Portal>
        <TooltipPrimitive.Content sideOffset={6} className="z-50 rounded-md bg-foreground px-2 py-1 text-xs text-background shadow">
          {content}
        </TooltipPrimitive.Content>
      </TooltipPrimitive.Portal>
    </TooltipPrimitive.Root>
  );
  return shared ? tooltip : <TooltipProvider>{tooltip}</TooltipProvider>;
}
