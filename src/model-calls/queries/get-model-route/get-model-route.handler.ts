import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { ModelRouteState } from '../../../copilot-cli/cli-protocol';
import { CopilotCliConnection } from '../../../copilot-cli/copilot-cli-connection';
import { GetModelRoute } from './get-model-route.query';

@QueryHandler(GetModelRoute)
export class GetModelRouteHandler implements IQueryHandler<GetModelRoute, ModelRouteState> {
  constructor(private readonly cli: CopilotCliConnection) {}

  execute(): Promise<ModelRouteState> {
    return Promise.resolve(this.cli.modelRoute());
  }
}
