import { contextCatalog, decidedBy } from '../common';
import { WorkspaceEvents } from './workspace.events';

const workspaceDecided = decidedBy('workspaceDecider', 'workspace', []);

export const workspaceCatalog = contextCatalog(
  { WorkspaceEvents },
  {
    [WorkspaceEvents.opened]: workspaceDecided,
    [WorkspaceEvents.checkpointed]: workspaceDecided,
    [WorkspaceEvents.merged]: workspaceDecided,
    [WorkspaceEvents.removed]: workspaceDecided,
    [WorkspaceEvents.restored]: workspaceDecided,
  },
);
