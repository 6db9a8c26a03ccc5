// The agents feature's public face: the agent library and its editor; what other pages use of agents: their display names.
// Other features and app/ import only this file (web/src/architecture.spec.ts); every other file here is the feature's own.

export { AgentEditorPage } from './AgentEditorPage';
export { AgentLibraryPage } from './AgentLibraryPage';
export { useAgentNames } from './agent-names';
