import { Module } from '@nestjs/common';
import { RunLineageModule } from '../run-lineage';
import { SessionsModule } from '../sessions';
import { PauseHandler } from './commands/pause/pause.handler';
import { UnpauseHandler } from './commands/unpause/unpause.handler';
import { PauseHolds } from './pause-holds';
import { PausesController } from './pauses.controller';
import { PausesProjection } from './projections/pauses.projection';
import { PauseCommandsResolver, RunPauseResolver, SessionPauseResolver } from './graphql/pauses.resolver';
import { PausesAccess } from './pauses.access';

/**
 * issue 26: pause and unpause a run's subtree or a session. `PauseHolds` is where the model route and
 * the request router wait while something over a session is paused; the pause itself is an event on
 * `pause-run-<id>` / `pause-session-<id>`, so it outlives a restart.
 */
@Module({
  imports: [SessionsModule, RunLineageModule],
  controllers: [PausesController],
  providers: [PausesAccess, PauseCommandsResolver, RunPauseResolver, SessionPauseResolver, PauseHolds, PausesProjection, PauseHandler, UnpauseHandler],
  exports: [PauseHolds],
})
export class PausesModule {}
