import type { Decider } from '../event-store';
import { WorkspaceRefusedError } from './workspace.errors';
import {
  type WorkspaceCheckpointedData,
  type WorkspaceEvent,
  WorkspaceEvents,
  type WorkspaceMergedData,
  type WorkspaceOpenedData,
  type WorkspaceRemovedData,
  type WorkspaceRestoredData,
  isWorkspaceEvent,
} from './workspace.events';

export interface WorkspaceState {
  opened?: WorkspaceOpenedData;
  /** The last checkpoint's commit: a checkpoint naming the same commit again is not recorded twice. */
  lastCommit?: string;
  /** Set once the branch was merged into the parent (outcome merged or up-to-date): a second merge is a no-op. */
  mergedInto?: string;
  /** The worktree folder is gone (its branch stays); a restore makes it again. */
  removed?: boolean;
}

export type WorkspaceCommand =
  | { type: 'open'; workspace: WorkspaceOpenedData }
  | { type: 'checkpoint'; checkpoint: WorkspaceCheckpointedData }
  | { type: 'recordMerge'; merge: WorkspaceMergedData }
  /** The same merge on the lead's stream: what reached its worktree (or conflicts there), readable from the lead. */
  | { type: 'recordIncomingMerge'; merge: WorkspaceMergedData }
  | { type: 'recordRemoval'; removal: WorkspaceRemovedData }
  | { type: 'recordRestore'; restore: WorkspaceRestoredData };

/**
 * One session's worktree: opened once, then checkpoints and merges. A checkpoint of the commit already
 * recorded, or a merge of a branch already merged, decides nothing (two callers racing record one).
 */
export const workspaceDecider: Decider<WorkspaceState, WorkspaceCommand, WorkspaceEvent> = {
  isEvent: isWorkspaceEvent,
  initialState: () => ({}),

  evolve(state, event) {
    switch (event.type) {
      case WorkspaceEvents.opened:
        return { opened: event.data, lastCommit: event.data.baseCommit };
      case WorkspaceEvents.checkpointed:
        return { ...state, lastCommit: event.data.commit };
      case WorkspaceEvents.merged:
        // Only its own branch's merge marks it merged; a child's merge into it is only read.
        return event.data.sessionId === state.opened?.sessionId && (event.data.outcome === 'merged' || event.data.outcome === 'up-to-date')
          ? { ...state, mergedInto: event.data.intoSessionId }
          : state;
      case WorkspaceEvents.removed:
        return { ...state, removed: true, lastCommit: event.data.lastCommit };
      case WorkspaceEvents.restored:
        return { ...state, removed: false };
      default:
        return state;
    }
  },

  decide(command, state) {
    switch (command.type) {
      case 'open':
        if (state.opened) throw new WorkspaceRefusedError(`Session ${command.workspace.sessionId} already has a workspace (${state.opened.path})`, {});
        return [{ type: WorkspaceEvents.opened, data: command.workspace }];
      case 'checkpoint':
        if (!state.opened || state.lastCommit === command.checkpoint.commit) return [];
        return [{ type: WorkspaceEvents.checkpointed, data: command.checkpoint }];
      case 'recordMerge':
        if (!state.opened || state.mergedInto) return [];
        return [{ type: WorkspaceEvents.merged, data: command.merge }];
      case 'recordIncomingMerge':
        if (!state.opened || command.merge.intoSessionId !== state.opened.sessionId) return [];
        return [{ type: WorkspaceEvents.merged, data: command.merge }];
      case 'recordRemoval':
        if (!state.opened || state.removed) return [];
        return [{ type: WorkspaceEvents.removed, data: command.removal }];
      case 'recordRestore':
        if (!state.opened || !state.removed) return [];
        return [{ type: WorkspaceEvents.restored, data: command.restore }];
    }
  },
};
