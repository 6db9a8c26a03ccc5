/**
 * A session's delegation, permission policy and budget as a form holds them: the new-session page starts
 * from its agent's defaults, the agent editor edits those defaults. Pure, so both pages share the rules.
 */

/** Per kind: not listed (denied, or for custom-tool only the session's own tools), asked of a person, or allowed. */
export type KindAnswer = 'deny' | 'ask' | 'allow';

export interface BudgetDraft {
  maxTokens: string;
  maxToolCalls: string;
  maxRuns: string;
  /** Seconds as typed; sent as milliseconds. */
  maxDurationSeconds: string;
  /** A decimal in the price table's currency. */
  maxCost: string;
}

/** The budget's fields in the order the forms show them (the session settings, the schedule editor). */
export const BUDGET_FIELDS: ReadonlyArray<{ field: keyof BudgetDraft; label: string; decimal?: boolean }> = [
  { field: 'maxRuns', label: 'Max runs' },
  { field: 'maxTokens', label: 'Max tokens' },
  { field: 'maxToolCalls', label: 'Max tool calls' },
  { field: 'maxDurationSeconds', label: 'Max time (seconds)' },
  { field: 'maxCost', label: 'Max cost', decimal: true },
];

/** issue 42: the git repository a session works in (a worktree of its own); an empty repository: none. */
export interface WorkspaceDraft {
  repository: string;
  ref: string;
  merge: 'auto' | 'manual';
}

/** A permission policy as the editors hold it: an answer per kind (none: deny), and the tools that ask a person. */
export interface PolicyDraft {
  kinds: Record<string, KindAnswer>;
  askTools: string[];
}

/** A policy as the API gives it, as a draft (ask beats allow, as the service decides). */
export function policyDraftOf(
  policy: { allowKinds: readonly string[]; askKinds: readonly string[]; askTools: readonly string[] } | null | undefined,
): PolicyDraft {
  const kinds: Record<string, KindAnswer> = {};
  for (const kind of policy?.allowKinds ?? []) kinds[kind] = 'allow';
  for (const kind of policy?.askKinds ?? []) kinds[kind] = 'ask';
  return { kinds, askTools: [...(policy?.askTools ?? [])] };
}

/** A workspace as the API gives it (an agent's default, a schedule's), as a draft: no repository, none. */
export function workspaceDraftOf(workspace: { repository: string; ref?: string | null; merge?: string | null } | null | undefined): WorkspaceDraft {
  return { repository: workspace?.repository ?? '', ref: workspace?.ref ?? '', merge: workspace?.merge === 'manual' ? 'manual' : 'auto' };
}

export interface SessionSettingsDraft extends PolicyDraft {
  /** undefined in the editor: "automatic", on when the agent has sub-agents. */
  delegation: boolean | undefined;
  budget: BudgetDraft;
  workspace: WorkspaceDraft;
}

/** What the API takes for a workspace: none without a repository; an empty ref is the repository's HEAD. */
export function workspaceOf(draft: WorkspaceDraft): { repository: string; ref?: string; merge?: 'manual' } | null {
  const repository = draft.repository.trim();
  if (!repository) return null;
  const ref = draft.ref.trim();
  return { repository, ...(ref ? { ref } : {}), ...(draft.merge === 'manual' ? { merge: 'manual' } : {}) };
}

/** A budget's limits as the API gives them (null or absent: no limit); the run page and the chat show them against what was used. */
export interface BudgetLimits {
  maxTokens?: number | null;
  maxToolCalls?: number | null;
  maxRuns?: number | null;
  maxDurationMs?: number | null;
  maxCost?: number | null;
}

/** An agent's defaults as the API gives them (GraphQL `Agent`). */
export interface AgentSessionDefaults {
  delegation?: boolean | null;
  subAgents: readonly string[];
  permissionPolicy?: { allowKinds: readonly string[]; askKinds: readonly string[]; askTools: readonly string[] } | null;
  budget?: BudgetLimits | null;
  workspace?: { repository: string; ref?: string | null; merge?: string | null } | null;
}

/** A kind as the service says it treats it (GraphQL `sessionOptions.permissionKinds`). */
export interface KindOption {
  kind: string;
  description: string;
  allowed: boolean;
  refusedReason?: string | null;
  enabledBy?: string | null;
  note?: string | null;
}

/**
 * The policy an editor chose (an agent's default, a schedule's): null when nothing is set, so the service's
 * default policy applies.
 */
export function chosenPolicyOf(draft: PolicyDraft): { allowKinds: string[]; askKinds: string[]; askTools: string[] } | null {
  const policy = policyOf(draft);
  return policy.allowKinds.length + policy.askKinds.length + policy.askTools.length > 0 ? policy : null;
}

/** Saved limits as the form shows them (no limit: an empty field; the duration in seconds). */
export function budgetDraftOf(limits: BudgetLimits | null | undefined): BudgetDraft {
  const text = (n: number | null | undefined) => (n === null || n === undefined ? '' : String(n));
  return {
    maxTokens: text(limits?.maxTokens),
    maxToolCalls: text(limits?.maxToolCalls),
    maxRuns: text(limits?.maxRuns),
    maxDurationSeconds: limits?.maxDurationMs ? String(limits.maxDurationMs / 1000) : '',
    maxCost: text(limits?.maxCost),
  };
}

export const emptyBudget = (): BudgetDraft => ({ maxTokens: '', maxToolCalls: '', maxRuns: '', maxDurationSeconds: '', maxCost: '' });

/** What the agent's sessions get when the request says nothing: the service's rule, shown to the person. */
export function delegationOf(agent: Pick<AgentSessionDefaults, 'delegation' | 'subAgents'>): boolean {
  return agent.delegation ?? agent.subAgents.length > 0;
}

export function settingsOf(agent: AgentSessionDefaults | undefined, delegation: 'resolved' | 'as-set'): SessionSettingsDraft {
  return {
    delegation: delegation === 'resolved' ? (agent ? delegationOf(agent) : false) : (agent?.delegation ?? undefined),
    ...policyDraftOf(agent?.permissionPolicy),
    budget: budgetDraftOf(agent?.budget),
    workspace: workspaceDraftOf(agent?.workspace),
  };
}

/** The service's kinds in its order (sessionOptions lists the same). */
export const KIND_ORDER = ['shell', 'write', 'read', 'url', 'mcp', 'custom-tool', 'memory'] as const;

/** The policy's lists, kinds in the service's order. */
export function policyOf(draft: PolicyDraft, order: readonly string[] = KIND_ORDER): { allowKinds: string[]; askKinds: string[]; askTools: string[] } {
  const known = [...order, ...Object.keys(draft.kinds).filter((k) => !order.includes(k))];
  return {
    allowKinds: known.filter((k) => draft.kinds[k] === 'allow'),
    askKinds: known.filter((k) => draft.kinds[k] === 'ask'),
    askTools: [...draft.askTools],
  };
}

export interface BudgetValue {
  maxTokens?: number;
  maxToolCalls?: number;
  maxRuns?: number;
  maxDurationMs?: number;
  maxCost?: number;
}

/** The budget to send (undefined: none set), or the problem of each field that is not a positive (whole, but for cost) number. */
export function budgetOf(draft: BudgetDraft): { budget?: BudgetValue; problems: Partial<Record<keyof BudgetDraft, string>> } {
  const problems: Partial<Record<keyof BudgetDraft, string>> = {};
  const budget: BudgetValue = {};
  const read = (field: keyof BudgetDraft, scale = 1): number | undefined => {
    const raw = draft[field].trim();
    if (raw === '') return undefined;
    const value = Number(raw) * scale;
    if (!Number.isFinite(value) || value <= 0 || !Number.isInteger(value)) {
      problems[field] = scale === 1 ? 'a positive whole number' : 'a positive number of seconds (at most 3 decimals)';
      return undefined;
    }
    return value;
  };
  const readCost = (): number | undefined => {
    const raw = draft.maxCost.trim();
    if (raw === '') return undefined;
    const value = Number(raw);
    if (!Number.isFinite(value) || value <= 0) {
      problems.maxCost = 'a positive amount, like 2.50';
      return undefined;
    }
    return value;
  };
  const tokens = read('maxTokens');
  const toolCalls = read('maxToolCalls');
  const runs = read('maxRuns');
  const duration = read('maxDurationSeconds', 1000);
  const cost = readCost();
  if (tokens !== undefined) budget.maxTokens = tokens;
  if (toolCalls !== undefined) budget.maxToolCalls = toolCalls;
  if (runs !== undefined) budget.maxRuns = runs;
  if (duration !== undefined) budget.maxDurationMs = duration;
  if (cost !== undefined) budget.maxCost = cost;
  return { ...(Object.keys(budget).length > 0 ? { budget } : {}), problems };
}

/** Kinds the draft allows or asks that the operator refuses: each with the reason and what opens it. */
export function refusedKinds(draft: SessionSettingsDraft, options: readonly KindOption[]): string[] {
  return options
    .filter((o) => !o.allowed && (draft.kinds[o.kind] ?? 'deny') !== 'deny')
    .map((o) => `${o.kind}: ${o.refusedReason ?? 'refused by the operator'}${o.enabledBy ? ` (${o.enabledBy} opens it)` : ''}`);
}
