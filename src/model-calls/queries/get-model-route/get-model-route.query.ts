import { Query } from '@nestjs/cqrs';
import type { ModelRouteState } from '../../../copilot-cli';

/** Whether the running CLI hands its model calls to Switchboard, and why not: the views that list calls say so. */
export class GetModelRoute extends Query<ModelRouteState> {}
