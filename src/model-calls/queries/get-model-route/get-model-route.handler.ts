import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { type ModelRouteState, CopilotCliConnection } from '../../../copilot-cli';
import { GetModelRoute } from './get-model-route.query';

@QueryHandler(GetModelRoute)
export class GetModelRouteHandler implements IQueryHandler<GetModelRoute, ModelRouteState> {
  constructor(private readonly cli: CopilotCliConnection) {}

  execute(): Promise<ModelRouteState> {
    return Promise.resolve(this.cli.modelRoute());
  }
}
