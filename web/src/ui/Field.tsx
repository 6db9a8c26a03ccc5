import { useId, type ReactNode } from 'react';

/** A labelled input with its help, or its problem in the help's place (aria-invalid, aria-describedby). */
export function Field({
  label,
  help,
  problem,
  narrow,
  children,
}: {
  label: string;
  help?: string;
  problem?: string;
  narrow?: boolean;
  children: (props: { id: string; 'aria-describedby': string; 'aria-invalid': true | undefined }) => ReactNode;
}) {
  const id = useId();
  return (
    <div className={narrow ? 'field narrow' : 'field'}>
      <label htmlFor={id}>{label}</label>
      {children({ id, 'aria-describedby': `${id}-note`, 'aria-invalid': problem ? true : undefined })}
      <p id={`${id}-note`} className={problem ? 'field-problem' : 'help'}>
        {problem ?? help}
      </p>
    </div>
  );
}
