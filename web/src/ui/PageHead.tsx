import type { ReactNode } from 'react';

/**
 * A list page's head: its title (`titleId`: the id the page's section is labelled by), a line on what
 * the page shows (the children), and its actions on the right.
 */
export function PageHead({ titleId, title, actions, children }: { titleId: string; title: string; actions?: ReactNode; children: ReactNode }) {
  return (
    <div className="page-head">
      <div>
        <h1 id={titleId}>{title}</h1>
        <p className="muted">{children}</p>
      </div>
      {actions}
    </div>
  );
}
