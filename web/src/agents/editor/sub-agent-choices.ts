import { useMemo } from 'react';
import type { ApiError } from '../../api/client';
import type { EditorChoicesQuery } from '../../gql/graphql';
import type { Choice } from '../../ui/ChoiceList';
import type { DraftCheck } from './use-draft-check';

export interface SubAgentChoices {
  choices: Choice[];
  /** The selected sub-agents that cannot be used: saving is blocked until they are removed or fixed. */
  flagged: string[];
}

/** Sub-agents: the eligible ones, plus any selected one that is not (flagged with the service's reason). */
export function useSubAgentChoices(
  editorChoices: EditorChoicesQuery | undefined,
  selected: readonly string[],
  check: DraftCheck | undefined,
  saveError: ApiError | undefined,
): SubAgentChoices {
  const problems = useMemo(() => {
    const byId = new Map<string, string[]>();
    for (const p of check?.subAgentProblems ?? []) byId.set(p.id, [...(byId.get(p.id) ?? []), p.reason]);
    if (saveError?.code === 'invalid_sub_agents') {
      for (const [path, reasons] of saveError.fieldProblems()) {
        const id = path.slice('sub_agents.'.length);
        if (path.startsWith('sub_agents.') && !byId.has(id)) byId.set(id, reasons);
      }
    }
    // Only what is still selected counts.
    return new Map([...byId].filter(([id]) => selected.includes(id)));
  }, [check, saveError, selected]);

  const choices: Choice[] = useMemo(() => {
    const eligible = editorChoices?.eligibleSubAgents ?? [];
    const names = new Map((editorChoices?.agents ?? []).map((a) => [a.id, a]));
    const list: Choice[] = eligible.map((a) => ({
      value: a.id,
      // The agent's own icon is the user's choice of emoji; without one, the name alone.
      label: a.icon ? `${a.icon} ${a.name}` : a.name,
      hint: a.id,
      problem: problems.get(a.id)?.join('; '),
    }));
    for (const id of selected) {
      if (eligible.some((a) => a.id === id)) continue;
      const known = names.get(id);
      list.push({
        value: id,
        label: known ? (known.icon ? `${known.icon} ${known.name}` : known.name) : id,
        hint: known ? id : undefined,
        problem: problems.get(id)?.join('; ') ?? 'cannot be a sub-agent of this agent',
      });
    }
    return list;
  }, [editorChoices, selected, problems]);

  return { choices, flagged: [...problems.keys()] };
}
