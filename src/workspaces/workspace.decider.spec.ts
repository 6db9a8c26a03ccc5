import { deciderSpec } from '../../test/fixtures/decider-spec';
import { workspaceDecider } from './workspace.decider';
import { WorkspaceRefusedError } from './workspace.errors';
import { type WorkspaceEvent, WorkspaceEvents } from './workspace.events';

const given = deciderSpec(workspaceDecider);
const workspace = {
  sessionId: 'sub-agent-r1',
  runId: 'r1',
  repository: '/srv/repos/shop',
  baseCommit: 'base',
  branch: 'switchboard/sub-agent-r1',
  path: '/var/lib/switchboard/workspaces/sub-agent-r1',
  parentSessionId: 's1',
  merge: 'auto' as const,
};
const opened: WorkspaceEvent = { type: WorkspaceEvents.opened, data: workspace };
const checkpoint = { sessionId: 'sub-agent-r1', runId: 'r1', commit: 'c1', files: [], cause: 'tool' as const, toolCallId: 'call_1' };
const checkpointed: WorkspaceEvent = { type: WorkspaceEvents.checkpointed, data: checkpoint };
const merge = { sessionId: 'sub-agent-r1', runId: 'r1', intoSessionId: 's1', files: [], conflicts: [] };
const removal = { sessionId: 'sub-agent-r1', path: workspace.path, reason: 'retention' as const, lastCommit: 'c1' };

describe('workspaceDecider', () => {
  it('opens a workspace once; a second open names the folder it already has', () => {
    given().when({ type: 'open', workspace }).then([opened]);
    given(opened)
      .when({ type: 'open', workspace })
      .thenThrows(WorkspaceRefusedError, /already has a workspace \(\/var\/lib\/switchboard\/workspaces\/sub-agent-r1\)/);
  });

  it('records a checkpoint of a new commit, and nothing for the commit already recorded or before it opened', () => {
    given(opened).when({ type: 'checkpoint', checkpoint }).then([checkpointed]);
    given(opened, checkpointed).when({ type: 'checkpoint', checkpoint }).then([]);
    given().when({ type: 'checkpoint', checkpoint }).then([]);
    // The base itself is no step.
    given(opened)
      .when({ type: 'checkpoint', checkpoint: { ...checkpoint, commit: 'base' } })
      .then([]);
  });

  it('records one merge into the parent; a conflicted or failed one may be tried again', () => {
    const merged: WorkspaceEvent = { type: WorkspaceEvents.merged, data: { ...merge, outcome: 'merged', commit: 'm1' } };
    const conflicted: WorkspaceEvent = { type: WorkspaceEvents.merged, data: { ...merge, outcome: 'conflicted', conflicts: ['a.txt'] } };
    given(opened).when({ type: 'recordMerge', merge: merged.data }).then([merged]);
    given(opened, merged).when({ type: 'recordMerge', merge: merged.data }).then([]);
    given(opened, conflicted).when({ type: 'recordMerge', merge: merged.data }).then([merged]);
  });

  it('records a child’s merge on the lead’s stream too, without marking the lead itself merged', () => {
    const lead = { ...workspace, sessionId: 's1', runId: undefined, parentSessionId: undefined, path: '/w/s1', branch: 'switchboard/s1' };
    const leadOpened: WorkspaceEvent = { type: WorkspaceEvents.opened, data: lead };
    const incoming: WorkspaceEvent = { type: WorkspaceEvents.merged, data: { ...merge, outcome: 'merged', commit: 'm1' } };
    given(leadOpened).when({ type: 'recordIncomingMerge', merge: incoming.data }).then([incoming]);
    // Into someone else: not this stream's.
    given(leadOpened)
      .when({ type: 'recordIncomingMerge', merge: { ...incoming.data, intoSessionId: 's9' } })
      .then([]);
    // The lead's own merge into its parent is still to come.
    const own = { ...merge, sessionId: 's1', intoSessionId: 's0', outcome: 'merged' as const };
    given(leadOpened, incoming)
      .when({ type: 'recordMerge', merge: own })
      .then([{ type: WorkspaceEvents.merged, data: own }]);
  });

  it('removes the folder once, restores it only after a removal, and records no checkpoint of the commit it was removed at', () => {
    const removed: WorkspaceEvent = { type: WorkspaceEvents.removed, data: removal };
    const restore = { sessionId: 'sub-agent-r1', path: workspace.path, commit: 'c1' };
    given(opened).when({ type: 'recordRemoval', removal }).then([removed]);
    given(opened, removed).when({ type: 'recordRemoval', removal }).then([]);
    given(opened).when({ type: 'recordRestore', restore }).then([]);
    given(opened, removed)
      .when({ type: 'recordRestore', restore })
      .then([{ type: WorkspaceEvents.restored, data: restore }]);
    given(opened, checkpointed, removed).when({ type: 'checkpoint', checkpoint }).then([]);
  });
});
