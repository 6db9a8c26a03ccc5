import { useMemo } from 'react';
import type { ApiError } from '../../api/client';
import { fieldOfProblem } from '../agent-draft';

/** A refused save's problems by the form field they belong to (a sub-agent's own show on the sub-agent). */
export function useFieldProblems(saveError: ApiError | undefined): ReadonlyMap<string, string[]> {
  return useMemo(() => {
    const byField = new Map<string, string[]>();
    for (const [path, reasons] of saveError?.fieldProblems() ?? []) {
      if (path.startsWith('sub_agents.') && saveError?.code === 'invalid_sub_agents') continue; // shown on the sub-agent itself
      const field = fieldOfProblem(path);
      byField.set(field, [...(byField.get(field) ?? []), ...reasons]);
    }
    return byField;
  }, [saveError]);
}
