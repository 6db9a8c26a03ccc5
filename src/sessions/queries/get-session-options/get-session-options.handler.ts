import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { MAX_BUDGET_COST, MAX_BUDGET_LIMIT } from '../../../agents';
import { SWITCHBOARD_CONFIG, type SwitchboardConfig } from '../../../config';
import { BuiltinToolCatalog } from '../../builtin-tool-catalog';
import { BUDGET_LIMITS } from '../../session-budget';
import { SessionEndpointPolicy } from '../../session-endpoint-policy';
import { GetSessionOptions, type SessionOptions } from './get-session-options.query';

@QueryHandler(GetSessionOptions)
export class GetSessionOptionsHandler implements IQueryHandler<GetSessionOptions, SessionOptions> {
  constructor(
    @Inject(SWITCHBOARD_CONFIG) private readonly config: SwitchboardConfig,
    private readonly endpoints: SessionEndpointPolicy,
    private readonly builtins: BuiltinToolCatalog,
  ) {}

  execute(): Promise<SessionOptions> {
    return Promise.resolve({
      permissionKinds: this.endpoints.permissionKindOptions(),
      budgetLimits: BUDGET_LIMITS.map((name) => ({ name, max: name === 'max_cost' ? MAX_BUDGET_COST : MAX_BUDGET_LIMIT })),
      delegationTools: this.builtins.group('delegation').map((tool) => tool.name),
      approvalTimeoutMs: this.config.approvals.timeoutMs,
      workingDirectory: this.config.cli.workingDirectory,
      workspaceRepositories: this.config.workspaces.repositories,
    });
  }
}
