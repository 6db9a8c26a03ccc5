import { Module } from '@nestjs/common';
import { SessionsModule } from '../sessions';
import { ChildSessionRouting } from './child-session-routing';
import { ChildSessionsProjection } from './projections/child-sessions.projection';

/** spec: subagent-tool-dispatch. Which parent session a sub-agent's request belongs to. */
@Module({
  imports: [SessionsModule],
  providers: [ChildSessionRouting, ChildSessionsProjection],
  exports: [ChildSessionRouting],
})
export class ChildSessionsModule {}
