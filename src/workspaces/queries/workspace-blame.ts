import { Injectable } from '@nestjs/common';
import { InvalidInputError, NotFoundError, PayloadTooLargeError } from '../../common';
import type { BlamedLine } from '../git';
import { referenceOf, type StepApproval, StepAttributions, type StepReference } from '../step-attribution';
import { MAX_BLAMED_BYTES, type RecordedCheckpoint, Workspaces } from '../workspaces';
import { openedOf, pathFilter, type WorkspaceOwner } from './workspace-changes';

/** The step that last wrote a line: its checkpoint, the agent, and what the other contexts know of the tool call. */
export interface LineStep {
  sessionId: string;
  runId?: string;
  agentName?: string;
  cause: RecordedCheckpoint['cause'];
  toolCallId?: string;
  toolName?: string;
  modelCallId?: string;
  approval?: StepApproval;
  commit: string;
  checkpointedAt: string;
}

export interface AttributedLine extends BlamedLine {
  /** Set for a `committed` line whose commit a checkpoint recorded (a merge's own lines have none). */
  step?: LineStep;
}

export interface WorkspaceBlame {
  sessionId: string;
  runId?: string;
  path: string;
  baseCommit: string;
  lines: AttributedLine[];
  /** Each step once, in the order its lines first appear: what a reader lists beside the file. */
  steps: LineStep[];
}

/**
 * issue 42 item 5: who last wrote each line of a file a session (or run) changed: git's blame of its
 * worktree since the base, each commit mapped to the checkpoint that made it, down the tree of runs merged
 * into it; the model call and the approval of the step's tool call come from the contexts that own them.
 */
@Injectable()
export class WorkspaceBlameQuery {
  constructor(
    private readonly workspaces: Workspaces,
    private readonly attributions: StepAttributions,
  ) {}

  async blame(owner: WorkspaceOwner, file: string | undefined): Promise<WorkspaceBlame> {
    const wanted = pathFilter(file);
    if (!wanted) throw new InvalidInputError('path is required: the file to attribute, like src/index.ts', { path: file ?? null });
    const opened = await openedOf(this.workspaces, owner);
    const blamed = await this.workspaces.blame(opened, wanted);
    if (blamed === 'missing') throw new NotFoundError(`There is no file ${wanted} in the worktree of ${opened.sessionId}`, { path: wanted });
    if (blamed === 'folder') throw new InvalidInputError(`${wanted} is a folder: name a file in it`, { path: wanted });
    if (blamed === 'too-large') {
      throw new PayloadTooLargeError(`${wanted} is larger than ${MAX_BLAMED_BYTES} bytes: read its diff instead`, { path: wanted });
    }
    const checkpoints = await this.workspaces.checkpointsOfTree(opened.sessionId);
    const steps = await this.stepsOf(blamed, checkpoints);
    return {
      sessionId: opened.sessionId,
      ...(opened.runId ? { runId: opened.runId } : {}),
      path: wanted,
      baseCommit: opened.baseCommit,
      lines: blamed.map((line) => {
        const step = line.commit ? steps.get(line.commit) : undefined;
        return step ? { ...line, step } : line;
      }),
      steps: [...steps.values()],
    };
  }

  /** The steps of the commits the lines name, with what each attribution source adds. */
  private async stepsOf(lines: readonly BlamedLine[], checkpoints: ReadonlyMap<string, RecordedCheckpoint>): Promise<Map<string, LineStep>> {
    const steps = new Map<string, LineStep>();
    const references: StepReference[] = [];
    for (const { commit } of lines) {
      const checkpoint = commit ? checkpoints.get(commit) : undefined;
      if (!checkpoint || steps.has(checkpoint.commit)) continue;
      // The checkpoint as it was recorded (no unset fields), less what a line's step does not show.
      const { files: _files, modelResponseId: _answer, recordedAt, ...step } = checkpoint;
      steps.set(checkpoint.commit, { ...step, checkpointedAt: recordedAt });
      references.push(referenceOf(checkpoint));
    }
    const facts = await this.attributions.of(references);
    [...steps.values()].forEach((step, i) => Object.assign(step, facts[i]));
    return steps;
  }
}
