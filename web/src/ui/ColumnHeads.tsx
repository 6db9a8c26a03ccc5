import type { ReactNode } from 'react';

/** A data table's header row: one column heading a name, then any cells the table heads itself (children). */
export function ColumnHeads({ names, children }: { names: readonly string[]; children?: ReactNode }) {
  return (
    <thead>
      <tr>
        {names.map((name) => (
          <th key={name} scope="col">
            {name}
          </th>
        ))}
        {children}
      </tr>
    </thead>
  );
}
