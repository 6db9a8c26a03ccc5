import { Injectable, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import type { Subscription } from 'rxjs';
import { EventStore, modelCallStreamId } from '../../event-store';
import { type SessionReplay, SessionRegistry } from '../../sessions';
import {
  isModelCallEvent,
  type ModelCallLineage,
  type ModelCallReplay,
  ModelCallEvents,
  type ModelUsage,
  type ReplayDivergence,
} from '../model-call.events';
import { type RecordedCall, ModelCallsReadModel } from '../model-calls-read-model';
import { firstDivergence, withForkChanges } from './replay-request';

/** A recorded call as a replay plays it back: what was asked, and the answer the CLI got. */
export interface RecordedExchange {
  callId: string;
  request?: string;
  stream: boolean;
  status: number;
  /** Undefined when the answer was not kept (content=metadata) or kept cut: it cannot be played back. */
  answer?: string;
  usage: ModelUsage;
  responseId?: string;
  finishReason?: string;
}

/** How one call of a replay or fork session is answered. */
export type ReplayPlan =
  /** The original's answer is played back; nothing reaches the model. */
  | { kind: 'record'; replay: ModelCallReplay; original: RecordedExchange }
  /** The replay stops here (`onDivergence: 'stop'`): the call is refused with `message`. */
  | { kind: 'refuse'; replay: ModelCallReplay; message: string }
  /** Sent to the model: `body` carries the fork's changes, `model` the agent's overridden model. */
  | { kind: 'live'; replay: ModelCallReplay; body: string; model?: string };

/** What a replay session has done so far: its calls' positions per agent, and which agents went live. */
interface ReplaySessionState {
  /** The original session's answered calls by agent name, oldest first. */
  recorded: Map<string, RecordedCall[]>;
  positions: Map<string, number>;
  liveAgents: Set<string>;
  wentLive: boolean;
  exchanges: Map<string, Promise<RecordedExchange>>;
}

/** A call's stream: started, then finished (a few more never). */
const EVENTS_PER_CALL = 10;

/**
 * issue 26: answers the model calls of a session with `config.replay` (a replay's or fork's run session) from
 * the record. The n-th call of an agent (by lineage name, never the CLI's ids) is matched to the n-th
 * answered call of the same agent in the original session; its request, normalized, is compared with the
 * original's (`firstDivergence`). Equal: the recorded answer is played back. Different, or no such call
 * then: a divergence, on which the replay stops (the call is refused) or goes live for that agent. A fork
 * answers from the record the calls that started before its fork point and sends the rest to the model,
 * its message appended at the fork point and its agent overrides applied to the live calls.
 */
@Injectable()
export class ReplayPlanner implements OnModuleInit, OnModuleDestroy {
  private readonly sessions = new Map<string, Promise<ReplaySessionState>>();
  private removals?: Subscription;

  constructor(
    private readonly registry: SessionRegistry,
    private readonly calls: ModelCallsReadModel,
    private readonly store: EventStore,
  ) {}

  onModuleInit(): void {
    this.removals = this.registry.removed$.subscribe((sessionId) => this.sessions.delete(sessionId));
  }

  onModuleDestroy(): void {
    this.removals?.unsubscribe();
  }

  /** Undefined for a session that replays nothing: the call goes its usual way. */
  async plan(lineage: ModelCallLineage, body: string): Promise<ReplayPlan | undefined> {
    const replay = this.registry.get(lineage.sessionId)?.config.replay;
    if (!replay) return undefined;
    const state = await this.stateOf(lineage.sessionId, replay);
    const agent = lineage.agentName;
    const position = (state.positions.get(agent) ?? 0) + 1;
    state.positions.set(agent, position);
    const overrides = replay.agentOverrides?.[agent];
    const live = (details: Omit<ModelCallReplay, 'source' | 'position'> = {}): ReplayPlan => {
      state.liveAgents.add(agent);
      state.wentLive = true;
      const message = details.forkPoint ? replay.message : undefined;
      return {
        kind: 'live',
        replay: { source: 'live', position, ...details },
        body: withForkChanges(body, { message, prompt: overrides?.prompt, model: overrides?.model }),
        ...(overrides?.model ? { model: overrides.model } : {}),
      };
    };
    if (!replay.originalSessionId || state.liveAgents.has(agent)) return live();
    const original = state.recorded.get(agent)?.[position - 1];
    const forkFrom = replay.mode === 'fork' ? replay.liveFrom : undefined;
    if (forkFrom) {
      // A call the original never made, once the fork went live: the new branch's own work.
      if (!original && state.wentLive) return live();
      if (original?.callId === forkFrom.callId) {
        const recorded = await this.exchangeOf(state, original.callId);
        const divergence = recorded.request === undefined ? undefined : firstDivergence(recorded.request, body);
        return live({ originalCallId: original.callId, forkPoint: true, ...(divergence ? { divergence } : {}) });
      }
      if (original && Date.parse(original.startedAt) >= Date.parse(forkFrom.startedAt)) return live({ originalCallId: original.callId });
    }
    let divergence: ReplayDivergence | undefined;
    let recorded: RecordedExchange | undefined;
    if (!original) {
      divergence = { part: 'missing', at: `call ${position} of ${agent}`, now: `the original session made ${position - 1} calls as ${agent}` };
    } else {
      recorded = await this.exchangeOf(state, original.callId);
      if (recorded.request === undefined || recorded.answer === undefined) {
        divergence = { part: 'missing', at: 'record', original: 'the request and answer were not kept whole (SWITCHBOARD_MODEL_CONTENT=full is needed)' };
      } else {
        divergence = firstDivergence(recorded.request, body);
      }
    }
    const matched = original ? { originalCallId: original.callId } : {};
    if (!divergence && recorded) return { kind: 'record', replay: { source: 'record', position, ...matched }, original: recorded };
    const found = divergence as ReplayDivergence;
    if (replay.onDivergence === 'live') return live({ ...matched, divergence: found });
    return { kind: 'refuse', replay: { source: 'record', position, ...matched, divergence: found }, message: divergenceMessage(agent, position, found) };
  }

  private stateOf(sessionId: string, replay: SessionReplay): Promise<ReplaySessionState> {
    let state = this.sessions.get(sessionId);
    if (!state) {
      state = this.loadState(sessionId, replay);
      this.sessions.set(sessionId, state);
      // A failed read is tried again at the next call, not kept.
      state.catch(() => this.sessions.delete(sessionId));
    }
    return state;
  }

  /** The original's calls, and (after a restart) where this session had got to: its own replayed calls in the ledger. */
  private async loadState(sessionId: string, replay: SessionReplay): Promise<ReplaySessionState> {
    const [originals, own] = await Promise.all([
      replay.originalSessionId ? this.calls.recordedCallsOf(replay.originalSessionId) : Promise.resolve([]),
      this.calls.replayedCallsOf(sessionId),
    ]);
    const recorded = new Map<string, RecordedCall[]>();
    for (const call of originals) recorded.set(call.agentName, [...(recorded.get(call.agentName) ?? []), call]);
    const state: ReplaySessionState = { recorded, positions: new Map(), liveAgents: new Set(), wentLive: false, exchanges: new Map() };
    for (const call of own) {
      state.positions.set(call.agentName, Math.max(state.positions.get(call.agentName) ?? 0, call.position));
      if (call.source === 'live') {
        state.liveAgents.add(call.agentName);
        state.wentLive = true;
      }
    }
    return state;
  }

  private exchangeOf(state: ReplaySessionState, callId: string): Promise<RecordedExchange> {
    let exchange = state.exchanges.get(callId);
    if (!exchange) {
      exchange = this.store.readStream(modelCallStreamId(callId), { limit: EVENTS_PER_CALL }).then((events) => recordedExchangeOf(callId, events));
      state.exchanges.set(callId, exchange);
    }
    return exchange;
  }
}

/** A recorded call off its stream: the request from `started`, the answer from `finished`. */
export function recordedExchangeOf(callId: string, events: readonly { type: string; data: unknown }[]): RecordedExchange {
  const exchange: RecordedExchange = { callId, stream: false, status: 200, usage: {} };
  for (const event of events) {
    if (!isModelCallEvent(event)) continue;
    if (event.type === ModelCallEvents.started) {
      exchange.stream = event.data.stream;
      if (event.data.request !== undefined && !event.data.requestTruncated) exchange.request = event.data.request;
    } else if (event.type === ModelCallEvents.finished) {
      const { status, answer, answerTruncated, usage, responseId, finishReason } = event.data;
      Object.assign(exchange, { status, usage, ...(responseId ? { responseId } : {}), ...(finishReason ? { finishReason } : {}) });
      if (answer !== undefined && !answerTruncated) exchange.answer = answer;
    }
  }
  return exchange;
}

const PART_NAMES: Record<ReplayDivergence['part'], string> = {
  system: 'its system prompt',
  tools: 'its tool list',
  messages: 'its conversation',
  model: 'its model',
  missing: 'the record',
};

/** What the CLI shows when a replay stops at a divergence (its turn ends on it), and what the run's stop says. */
export function divergenceMessage(agent: string, position: number, divergence: ReplayDivergence): string {
  const where = divergence.at ? ` (at ${divergence.at})` : '';
  const what =
    divergence.part === 'missing'
      ? `has no recorded answer to play back${where}`
      : `differs from the original's in ${PART_NAMES[divergence.part]}${where}`;
  return `the replay stopped at call ${position} of agent ${agent}: it ${what}; on_divergence "live" goes on with the model from there`;
}
