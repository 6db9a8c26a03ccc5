import { Query } from '@nestjs/cqrs';
import type { PermissionKind } from '../../session-config';
import type { BudgetLimit } from '../../session-budget';

/** A permission kind as this service treats it in a session's policy: whether a request may allow or ask it, and if not, what opens it. */
export interface PermissionKindOption {
  kind: PermissionKind;
  /** What approving it lets the model do. */
  description: string;
  /** May a session (or an agent's default) list it in allowKinds / askKinds here. */
  allowed: boolean;
  /** Why not, when not allowed. */
  refusedReason: string | null;
  /** The operator's setting that allows it (`NAME=value`), when not allowed. */
  enabledBy: string | null;
  /** A limit that stays when allowed (a read stays inside the working directory). */
  note: string | null;
}

/** What a console needs to offer a session's settings without a request being refused: the operator's switches, read-only. */
export interface SessionOptions {
  permissionKinds: PermissionKindOption[];
  /** The largest value of each budget limit; every limit is optional and a positive whole number. */
  budgetLimits: Array<{ name: BudgetLimit; max: number }>;
  /** The built-in tools `delegation` gives the main agent. */
  delegationTools: string[];
  /** A request waiting for a person is denied after this long (SWITCHBOARD_APPROVAL_TIMEOUT_MS). */
  approvalTimeoutMs: number;
  /** The folder sessions work in; an allowed read stays inside it unless host permissions are on. */
  workingDirectory: string;
  /** issue 42: SWITCHBOARD_REPOSITORIES, where a session's `workspace.repository` may be (empty: workspaces off). */
  workspaceRepositories: string[];
}

export class GetSessionOptions extends Query<SessionOptions> {}
