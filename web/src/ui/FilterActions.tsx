import type { ReactNode } from 'react';

/** A filter form's buttons: Apply (the form's submit), Clear, then any the list adds (children). */
export function FilterActions({ onClear, children }: { onClear: () => void; children?: ReactNode }) {
  return (
    <div className="audit-filter-actions">
      <button type="submit" className="button primary">
        Apply filters
      </button>
      <button type="button" className="ghost" onClick={onClear}>
        Clear
      </button>
      {children}
    </div>
  );
}
