import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { and, asc, eq, isNull } from 'drizzle-orm';
import type { Subscription } from 'rxjs';
import type { ToolResult } from '../copilot-cli';
import { ReadModelDatabase } from '../database';
import { type LiveSession, SessionRegistry } from '../sessions';
import { RoutedRequestEvents } from './routed-request.events';

/** What the record answers for one routed tool call of a replay: the recorded result, or why it cannot. */
export type ReplayedToolAnswer = { kind: 'record'; result: ToolResult } | { kind: 'live' } | { kind: 'missing'; result: ToolResult };

const RESULT_TYPES = new Set<ToolResult['resultType']>(['success', 'failure', 'rejected', 'denied']);

/**
 * issue 26: a replay's webhook tool calls answered from the original session's record: the n-th call of
 * a tool by an agent (the session's main agent or a CLI sub-agent, by name) gets the result the original's
 * n-th call of that tool by that agent got, from `routed_requests`, without calling the webhook. A call
 * whose arguments differ from the recorded one's (a fork after its fork point, a replay gone live) is
 * sent to the webhook when the session may go live; otherwise, as for a call the original never made, it
 * gets a failure result saying so. Positions are counted in memory per live session.
 */
@Injectable()
export class ReplayedToolResults implements OnModuleDestroy {
  private readonly positions = new Map<string, number>();
  private readonly subscription: Subscription;

  constructor(
    private readonly db: ReadModelDatabase,
    registry: SessionRegistry,
  ) {
    this.subscription = registry.removed$.subscribe((sessionId) => {
      for (const key of this.positions.keys()) if (key.startsWith(`${sessionId}\u0000`)) this.positions.delete(key);
    });
  }

  onModuleDestroy(): void {
    this.subscription.unsubscribe();
  }

  async answer(session: LiveSession, agentName: string | undefined, toolName: string, args: unknown): Promise<ReplayedToolAnswer> {
    const replay = session.config.replay;
    const mayGoLive = replay?.mode === 'fork' || replay?.onDivergence === 'live';
    const key = [session.sessionId, agentName ?? '', toolName].join('\u0000');
    const position = (this.positions.get(key) ?? 0) + 1;
    this.positions.set(key, position);
    if (!replay?.originalSessionId) {
      return mayGoLive ? { kind: 'live' } : { kind: 'missing', result: missing(`the original run made no such session to answer tool ${toolName} from`) };
    }
    const recorded = await this.recorded(replay.originalSessionId, agentName, toolName, position);
    if (recorded && sameArguments(recorded.arguments, args)) return { kind: 'record', result: toolResultOf(recorded) };
    if (mayGoLive) return { kind: 'live' };
    return {
      kind: 'missing',
      result: missing(
        recorded
          ? `call ${position} of tool ${toolName} was made with other arguments in the original run; the replay does not call the tool`
          : `the original run made no call ${position} of tool ${toolName}${agentName ? ` by agent ${agentName}` : ''}; the replay does not call the tool`,
      ),
    };
  }

  private async recorded(sessionId: string, agentName: string | undefined, toolName: string, position: number) {
    const { routedRequests: t } = this.db.tables;
    const [row] = await this.db.orm
      .select({ arguments: t.arguments, result: t.result, outcome: t.outcome, reason: t.reason })
      .from(t)
      .where(
        and(
          eq(t.parentSessionId, sessionId),
          eq(t.kind, RoutedRequestEvents.toolCallRouted),
          eq(t.toolName, toolName),
          agentName ? eq(t.agentName, agentName) : isNull(t.agentName),
        ),
      )
      .orderBy(asc(t.globalPosition))
      .limit(1)
      .offset(position - 1);
    return row;
  }
}

function toolResultOf(row: { result: string | null; outcome: string; reason: string | null }): ToolResult {
  const resultType = RESULT_TYPES.has(row.outcome as ToolResult['resultType']) ? (row.outcome as ToolResult['resultType']) : 'failure';
  return { textResultForLlm: row.result ?? '', resultType, ...(row.reason ? { error: row.reason } : {}) };
}

function missing(text: string): ToolResult {
  return { textResultForLlm: `Switchboard replay: ${text}.`, resultType: 'failure', error: text };
}

/** The stored arguments are JSON text of what the CLI sent (a string as it was); compare as that text. */
function sameArguments(stored: string | null, now: unknown): boolean {
  const text = now === undefined ? null : typeof now === 'string' ? now : JSON.stringify(now);
  if (stored === text) return true;
  try {
    return stored !== null && text !== null && JSON.stringify(JSON.parse(stored)) === JSON.stringify(JSON.parse(text));
  } catch {
    return false;
  }
}
