import type { ReactNode } from 'react';

/**
 * A table from md up; below it each row stacks into a card (its cells wrap, `basis-full` ones on a
 * line of their own). Explicit roles keep it a table for screen readers whatever the display.
 * Rows are `<tr role="row" className={stackRow}>`, cells `<td role="cell" className={stackCell}>`.
 */
export function StackTable(props: { columns: readonly string[]; caption?: string; className?: string; headClassName?: string; children: ReactNode }) {
  return (
    <table role="table" className={`block w-full text-left text-sm md:table ${props.className ?? ''}`}>
      {props.caption && <caption className="sr-only">{props.caption}</caption>}
      <thead role="rowgroup" className={`sr-only bg-muted text-xs text-muted-foreground md:not-sr-only md:table-header-group ${props.headClassName ?? ''}`}>
        <tr role="row">
          {props.columns.map((c) => (
            <th key={c} role="columnheader" scope="col" className="px-3 py-2">
              {c}
            </th>
          ))}
        </tr>
      </thead>
      <tbody role="rowgroup" className="block divide-y divide-border md:table-row-group">
        {props.children}
      </tbody>
    </table>
  );
}

/** A cell of a StackTable: padded and top-aligned as a table cell from md up. */
export const stackCell = 'md:table-cell md:px-3 md:py-2 md:align-top';
