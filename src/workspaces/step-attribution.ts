import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { type Actor, Contributes, contributionsTo } from '../common';
import type { WorkspaceCheckpointedData } from './workspace.events';

/**
 * The slot through which other contexts say more of a checkpointed step than the workspace stream knows:
 * the model-calls context which model call asked for the tool, the approvals context who approved the
 * call. They import this slot; workspaces imports neither of them (both already depend on sessions, which
 * depends on workspaces).
 */
export const STEP_ATTRIBUTIONS = 'switchboard:workspace-step-attribution';

export const ProvidesStepAttribution = (): ClassDecorator => Contributes(STEP_ATTRIBUTIONS);

/** A checkpointed step as the sources are asked about it. */
export interface StepReference {
  /** The session (or run's thread) whose tool call it was. */
  sessionId: string;
  toolCallId?: string;
  /** The model answer's id the CLI named (`apiCallId`): the ledger's `responseId`. */
  modelResponseId?: string;
}

/** A person's (or a key's, or the timeout's) decision on the tool call. */
export interface StepApproval {
  approvalId: string;
  decision: string;
  scope: string | null;
  /** The client the decision came through: `console`, `api`, `timeout`. */
  decidedBy: string | null;
  /** Who decided: the actor recorded with the decision. */
  decider: Actor | null;
  decidedAt: string | null;
}

/** What a source adds to a step; each source fills its own fields. */
export interface StepFacts {
  /** The model call (`model_call-<id>`) that asked for the tool. */
  modelCallId?: string;
  approval?: StepApproval;
}

export interface StepAttributionSource {
  /** One answer per step, in the order asked (undefined: nothing known). Reads only: never blocks a write. */
  attribute(steps: readonly StepReference[]): Promise<ReadonlyArray<StepFacts | undefined>>;
}

/** Every contributed source, asked together: what the reads of checkpoints and lines add to each step. */
@Injectable()
export class StepAttributions implements OnModuleInit {
  private readonly logger = new Logger(StepAttributions.name);
  private sources: StepAttributionSource[] = [];

  constructor(private readonly discovery: DiscoveryService) {}

  onModuleInit(): void {
    this.sources = contributionsTo<StepAttributionSource>(this.discovery, STEP_ATTRIBUTIONS);
  }

  /** One answer per step, in order: each source's fields merged. A source that fails is left out (logged): the steps still read. */
  async of(steps: readonly StepReference[]): Promise<StepFacts[]> {
    const merged: StepFacts[] = steps.map(() => ({}));
    if (steps.length === 0) return merged;
    const answers = await Promise.all(
      this.sources.map((source) =>
        source.attribute(steps).catch((error: unknown) => {
          this.logger.warn({ err: error, source: source.constructor.name }, 'a step attribution source failed; its fields are left out');
          return [];
        }),
      ),
    );
    for (const facts of answers) {
      facts.forEach((fact, i) => {
        if (fact?.modelCallId) merged[i].modelCallId = fact.modelCallId;
        if (fact?.approval) merged[i].approval = fact.approval;
      });
    }
    return merged;
  }
}

/** What the sources are asked of a checkpoint. */
export function referenceOf(checkpoint: Pick<WorkspaceCheckpointedData, 'sessionId' | 'toolCallId' | 'modelResponseId'>): StepReference {
  return {
    sessionId: checkpoint.sessionId,
    ...(checkpoint.toolCallId ? { toolCallId: checkpoint.toolCallId } : {}),
    ...(checkpoint.modelResponseId ? { modelResponseId: checkpoint.modelResponseId } : {}),
  };
}
