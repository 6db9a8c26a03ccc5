import type { HookFailureMode, HookType } from '../agents';

/**
 * What a hook webhook may answer, per hook type: the keys of the Copilot SDK's hook outputs that
 * the CLI reads, each with its type. Anything else a webhook sends is dropped, not passed to the
 * CLI (`modifiedConfig` of sessionStart or `cleanupActions` of sessionEnd would let an API caller's
 * webhook reach past the session). Pure.
 */
type Check = (v: unknown) => boolean;
const str: Check = (v) => typeof v === 'string';
const bool: Check = (v) => typeof v === 'boolean';
const num: Check = (v) => typeof v === 'number' && Number.isFinite(v);
const obj: Check = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);
const oneOf =
  (...values: string[]): Check =>
  (v) =>
    typeof v === 'string' && values.includes(v);
const toolResult: Check = (v) => obj(v) && typeof (v as Record<string, unknown>).textResultForLlm === 'string';

const OUTPUT_KEYS: Record<HookType, Record<string, Check>> = {
  preToolUse: {
    permissionDecision: oneOf('allow', 'deny', 'ask'),
    permissionDecisionReason: str,
    modifiedArgs: obj,
    additionalContext: str,
    suppressOutput: bool,
  },
  postToolUse: { modifiedResult: toolResult, additionalContext: str, suppressOutput: bool },
  postToolUseFailure: { additionalContext: str },
  userPromptSubmitted: { modifiedPrompt: str, additionalContext: str, suppressOutput: bool },
  sessionStart: { additionalContext: str },
  sessionEnd: { suppressOutput: bool, sessionSummary: str },
  errorOccurred: { suppressOutput: bool, errorHandling: oneOf('retry', 'skip', 'abort'), retryCount: num, userNotification: str },
  agentStop: { decision: oneOf('block'), reason: str },
  subagentStart: { additionalContext: str },
  subagentStop: { decision: oneOf('block'), reason: str },
};

export type HookOutput = Record<string, unknown>;

/** A webhook's 2xx body as a hook output: `{}` / empty is "no opinion"; anything but a JSON object is a failure. */
export function parseHookAnswer(hookType: HookType, raw: string): { output: HookOutput } | { error: string } {
  if (raw.trim() === '') return { output: {} };
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return { error: 'answered with a body that is not JSON' };
  }
  if (!obj(parsed)) return { error: 'answered with JSON that is not an object' };
  const body = parsed as Record<string, unknown>;
  const output: HookOutput = {};
  for (const [key, check] of Object.entries(OUTPUT_KEYS[hookType])) {
    if (body[key] !== undefined && check(body[key])) output[key] = body[key];
  }
  return { output };
}

/** Later handlers see earlier ones' changes; a deny ends the chain (nothing can overrule it). */
export function mergeOutputs(into: HookOutput, next: HookOutput): HookOutput {
  return { ...into, ...next };
}

/** preToolUse: the arguments the next handler (and the tool) sees. */
export function nextInput(hookType: HookType, input: unknown, output: HookOutput): unknown {
  if (hookType === 'preToolUse' && output.modifiedArgs !== undefined && obj(input)) {
    return { ...(input as Record<string, unknown>), toolArgs: output.modifiedArgs };
  }
  if (hookType === 'userPromptSubmitted' && typeof output.modifiedPrompt === 'string' && obj(input)) {
    return { ...(input as Record<string, unknown>), prompt: output.modifiedPrompt };
  }
  return input;
}

export function isDenied(hookType: HookType, output: HookOutput): boolean {
  return hookType === 'preToolUse' && output.permissionDecision === 'deny';
}

/** How the audit names what the hooks decided. */
export function outcomeOf(hookType: HookType, output: HookOutput): 'continued' | 'allowed' | 'denied' | 'modified' | 'answered' {
  if (hookType === 'preToolUse') {
    if (output.permissionDecision === 'deny') return 'denied';
    if (output.modifiedArgs !== undefined) return 'modified';
    if (output.permissionDecision === 'allow') return 'allowed';
  }
  return Object.keys(output).length > 0 ? 'answered' : 'continued';
}

/**
 * A handler that failed under `failure: closed` stops what the hook guards: a tool call is denied
 * (the model reads why), a tool's result is withheld. Other hook types have nothing to stop on
 * their own: the CLI gets an error for the hook (`undefined` here).
 */
export function closedOutput(hookType: HookType, why: string): HookOutput | undefined {
  if (hookType === 'preToolUse') return { permissionDecision: 'deny', permissionDecisionReason: why };
  if (hookType === 'postToolUse') return { modifiedResult: { textResultForLlm: why, resultType: 'failure' } };
  return undefined;
}

export function failureText(hookType: HookType, mode: HookFailureMode, what: string): string {
  return mode === 'closed'
    ? `The ${hookType} hook's webhook ${what}; it fails closed, so the call was stopped.`
    : `The ${hookType} hook's webhook ${what}; it fails open, so the call went on.`;
}
