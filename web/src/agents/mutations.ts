import { useGraphqlMutation } from '../api/mutation';
import { CreateAgentMutation, DeleteAgentMutation, ImportAgentsMutation, UpdateAgentMutation } from './operations';

// Every write of the agent pages, and the queries each makes stale. Saving an agent keeps the editor's
// own copy (it knows the new version); the library's live feed reports every change to the other pages.

/** Every query about agents: the library, the names, the editors and their choices. */
export const agentsKey = ['agents'] as const;
export const libraryKey = [...agentsKey, 'library'] as const;

/** A new agent: every list of agents (the library, the editors' choices) is out of date, whatever the live feed says later. */
export const useCreateAgent = () => useGraphqlMutation(CreateAgentMutation, { stale: () => [agentsKey], when: 'success' });
export const useUpdateAgent = () => useGraphqlMutation(UpdateAgentMutation);
export const useDeleteAgent = () => useGraphqlMutation(DeleteAgentMutation);
/** Imported files change the library at once; a refused import (nothing imported) leaves it. */
export const useImportAgents = () => useGraphqlMutation(ImportAgentsMutation, { stale: () => [libraryKey], when: 'success' });
