import { useMemo } from 'react';
import type { EditorChoicesQuery } from '../../gql/graphql';
import { ChoiceList, type Choice } from '../../ui/ChoiceList';
import type { DraftFormProps } from './draft-form';

type McpRegistry = EditorChoicesQuery['mcpServers'];

/** The MCP servers of the registry to pick from; a selected one the registry lacks is flagged. */
export function McpServersEditor({ draft, set, fieldProblem, registry }: DraftFormProps & { registry: McpRegistry | undefined }) {
  const choices: Choice[] = useMemo(() => {
    const servers = registry?.servers ?? [];
    const list: Choice[] = servers.map((s) => ({ value: s.name, label: s.name, hint: s.type }));
    for (const name of draft.mcpServers) {
      if (!servers.some((s) => s.name === name))
        list.push({ value: name, label: name, problem: 'not in the MCP registry (SWITCHBOARD_MCP_CONFIG); sessions of this agent cannot start' });
    }
    return list;
  }, [registry, draft.mcpServers]);
  return (
    <>
      <ChoiceList
        legend="MCP servers"
        choices={choices}
        selected={draft.mcpServers}
        onChange={(v) => set('mcpServers', v)}
        empty={
          registry?.problem ?? 'No MCP servers are configured. The operator lists them in the file SWITCHBOARD_MCP_CONFIG names ({ "mcpServers": { … } }).'
        }
      />
      {fieldProblem('mcpServers') && <p className="field-problem">{fieldProblem('mcpServers')}</p>}
    </>
  );
}
