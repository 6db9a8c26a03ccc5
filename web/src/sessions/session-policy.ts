import type { BudgetLimits } from '../session-settings';
// What a session was allowed when it was created, read off its stored config (`Session.config`), for
// the chat's side panel: whether it may delegate, its permission policy, and its budget's figures.

export interface SessionPolicy {
  /** Whether its main agent has agent_run (the config's `delegation`, or the tool itself in older sessions). */
  delegation: boolean;
  allowKinds: string[];
  askKinds: string[];
  askTools: string[];
  approveOwnTools: boolean;
}

const DELEGATION_TOOL = 'agent_run';

const asRecord = (value: unknown): Record<string, unknown> =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);

export function sessionPolicyOf(config: unknown): SessionPolicy {
  const record = asRecord(config);
  const policy = asRecord(record.permissionPolicy);
  const tools = Array.isArray(record.tools) ? record.tools : [];
  return {
    delegation: typeof record.delegation === 'boolean' ? record.delegation : tools.some((tool) => asRecord(tool).name === DELEGATION_TOOL),
    allowKinds: strings(policy.allowKinds),
    askKinds: strings(policy.askKinds),
    askTools: strings(policy.askTools),
    approveOwnTools: policy.approveOwnTools !== false,
  };
}

export interface BudgetFigures {
  limits: BudgetLimits;
  // cost undefined: not known, shown as "unknown" (never as 0), as the model calls say it.
  used: { tokens: number; toolCalls: number; runs: number; durationMs: number; cost?: number };
}

/** One line per limit the budget has: "tokens: 1,200 of 50,000". */
export function budgetLines(budget: BudgetFigures): string[] {
  const { limits, used } = budget;
  const lines: string[] = [];
  const line = (what: string, use: number | undefined, limit: number | null | undefined, unit = (n: number) => n.toLocaleString('en')) => {
    if (limit !== null && limit !== undefined) lines.push(`${what}: ${use === undefined ? 'unknown' : unit(use)} of ${unit(limit)}`);
  };
  line('tokens', used.tokens, limits.maxTokens);
  line('tool calls', used.toolCalls, limits.maxToolCalls);
  line('runs', used.runs, limits.maxRuns);
  line('time', used.durationMs, limits.maxDurationMs, (ms) => `${Math.round(ms / 1000).toLocaleString('en')} s`);
  line('cost', used.cost, limits.maxCost, (n) => n.toLocaleString('en', { maximumFractionDigits: 4 }));
  return lines;
}
