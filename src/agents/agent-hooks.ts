import { z } from 'zod';

/**
 * The hook types the Copilot CLI sends through `hooks.invoke` when a session is created with
 * `hooks: true` (the names on the wire, read off the CLI 1.0.x and the Copilot SDK's handler map).
 */
export const HOOK_TYPES = [
  'preToolUse',
  'postToolUse',
  'postToolUseFailure',
  'userPromptSubmitted',
  'sessionStart',
  'sessionEnd',
  'errorOccurred',
  'agentStop',
  'subagentStart',
  'subagentStop',
] as const;
export type HookType = (typeof HOOK_TYPES)[number];

/** What a failing or silent webhook means: `closed` stops the call, `open` lets it through. */
export type HookFailureMode = 'open' | 'closed';

/**
 * A hook handler: a webhook for one hook type. Shared by session requests (`hooks`) and library
 * agents (`hooks`), so both are checked and stored alike.
 */
export const hookSpecSchema = z
  .object({
    type: z.enum(HOOK_TYPES),
    url: z
      .string()
      .url()
      .refine((u) => /^https?:\/\//i.test(u), 'must be an http(s) URL'),
    /** Unset: closed for preToolUse (a hook that cannot answer must not let a call through), open for the others. */
    failure: z.enum(['open', 'closed']).optional(),
  })
  .strict();
export type HookSpec = z.infer<typeof hookSpecSchema>;

export const MAX_HOOKS = 32;
export const hookListSchema = z.array(hookSpecSchema).max(MAX_HOOKS);

export function failureModeOf(hook: HookSpec): HookFailureMode {
  return hook.failure ?? (hook.type === 'preToolUse' ? 'closed' : 'open');
}

/**
 * The outbound guard's verdict on an agent's hook URLs, at registration: a refused address is a
 * problem; a host that does not resolve yet is left to the guard at call time (as for tool webhooks).
 */
export async function hookUrlProblems(
  hooks: readonly HookSpec[] | undefined,
  check: (url: string) => Promise<{ allowed: boolean; unresolved?: boolean; reason?: string }>,
): Promise<Array<{ field: string; reason: string }>> {
  const verdicts = await Promise.all((hooks ?? []).map((hook) => check(hook.url)));
  return verdicts.flatMap((v, i) =>
    v.allowed || v.unresolved ? [] : [{ field: `hooks[${i}].url`, reason: `the URL is refused by the outbound guard: ${v.reason ?? 'refused'}` }],
  );
}
