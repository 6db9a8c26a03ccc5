import { Injectable } from '@nestjs/common';
import { performance } from 'node:perf_hooks';
import { failureModeOf, HOOK_TYPES, type HookSpec, type HookType } from '../agents';
import { closedOutput, failureText, type HookOutput, isDenied, mergeOutputs, nextInput, outcomeOf, parseHookAnswer } from './hook-answers';
import { SignedWebhook } from './signed-webhook';

/** Who caused the hook: the session that owns the handlers, and the sub-agent when a child's hook it is. */
export interface HookCaller {
  sessionId: string;
  childSessionId?: string;
  agentName?: string;
  /** When the session is a run's thread: where that run sits in its delegation tree. */
  lineage?: HookLineage;
  /** issue 28: the hook call's span (`SpanIds.hook`) in the session's current trace, sent as the webhooks' traceparent. */
  traceparent?: string;
}

/** What a hook is told of a run's place in its tree (`LineageLookup`): `path` is `/<root>/…/<run>/`. */
export interface HookLineage {
  runId: string;
  agentId: string;
  rootRunId: string;
  parentRunId: string | null;
  path: string;
}

/** One webhook's part in a hook call, for the audit. */
export interface HookHandlerCall {
  url: string;
  failure: 'open' | 'closed';
  outcome: 'answered' | 'failed';
  error?: string;
  output?: HookOutput;
  latencyMs: number;
}

/**
 * What the CLI is answered: `output` (the merged hook outputs) or, for a closed failure of a hook
 * type that has nothing to deny, `stop` (the CLI gets an error). `outcome` and `reason` are the audit's.
 */
export interface HookVerdict {
  output: HookOutput;
  stop?: string;
  outcome: string;
  reason?: string;
  handlers: HookHandlerCall[];
}

export function isHookType(value: unknown): value is HookType {
  return typeof value === 'string' && (HOOK_TYPES as readonly string[]).includes(value);
}

/**
 * Runs a session's hook webhooks for one `hooks.invoke`, in the order they were registered (the
 * main agent's, then the session request's). Each is POSTed `{hookType, sessionId, childSessionId,
 * agentName, input}` through the one SignedWebhook (outbound guard, signature, deadline); a later
 * handler sees an earlier one's changed arguments; a deny ends the chain; a handler that fails
 * (transport, timeout, non-2xx, a body that is not a JSON object) is let through or stops the call
 * by its `failure` mode.
 */
@Injectable()
export class HookDispatcher {
  constructor(private readonly webhook: SignedWebhook) {}

  async invoke(handlers: readonly HookSpec[], hookType: HookType, input: unknown, caller: HookCaller): Promise<HookVerdict> {
    let output: HookOutput = {};
    let current = input;
    const calls: HookHandlerCall[] = [];
    const failures: string[] = [];
    for (const hook of handlers) {
      const started = performance.now();
      const failure = failureModeOf(hook);
      const answer = await this.call(hook.url, hookType, current, caller);
      const latencyMs = performance.now() - started;
      if ('error' in answer) {
        calls.push({ url: hook.url, failure, outcome: 'failed', error: answer.error, latencyMs });
        const why = failureText(hookType, failure, answer.error);
        if (failure === 'open') {
          failures.push(why);
          continue;
        }
        const closed = closedOutput(hookType, why);
        return closed
          ? { output: closed, outcome: 'failed_closed', reason: why, handlers: calls }
          : { output: {}, stop: why, outcome: 'failed_closed', reason: why, handlers: calls };
      }
      calls.push({ url: hook.url, failure, outcome: 'answered', output: answer.output, latencyMs });
      output = mergeOutputs(output, answer.output);
      current = nextInput(hookType, current, answer.output);
      if (isDenied(hookType, output)) break;
    }
    const outcome = outcomeOf(hookType, output);
    const reason = typeof output.permissionDecisionReason === 'string' ? output.permissionDecisionReason : failures.join(' ') || undefined;
    return { output, outcome: failures.length > 0 && outcome === 'continued' ? 'failed_open' : outcome, reason, handlers: calls };
  }

  private async call(url: string, hookType: HookType, input: unknown, caller: HookCaller): Promise<{ output: HookOutput } | { error: string }> {
    let body: string;
    try {
      body = JSON.stringify({
        hookType,
        sessionId: caller.sessionId,
        childSessionId: caller.childSessionId ?? null,
        agentName: caller.agentName ?? null,
        lineage: caller.lineage ?? null,
        input,
      });
    } catch (error) {
      return { error: `could not be sent the input as JSON (${(error as Error).message})` };
    }
    const answer = await this.webhook.post(url, body, caller.traceparent);
    if ('refused' in answer) return { error: `URL is refused by the outbound guard (${answer.refused})` };
    if ('error' in answer) return { error: this.webhook.describeError(answer.error) };
    if (answer.status < 200 || answer.status > 299) return { error: `answered HTTP ${answer.status}` };
    return parseHookAnswer(hookType, answer.body);
  }
}
