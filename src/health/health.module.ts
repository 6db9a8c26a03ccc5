import { WorkspacesModule } from '../workspaces';
import { Module } from '@nestjs/common';
import { ApiTokenGuard } from '../common';
import { SWITCHBOARD_CONFIG, type SwitchboardConfig } from '../config';
import { ModelCallsModule } from '../model-calls';
import { HealthController } from './health.controller';
import { ProviderProbe } from './provider-probe';
import { Readiness } from './readiness';
import { HealthAccess } from './health.access';

@Module({
  imports: [ModelCallsModule, WorkspacesModule],
  controllers: [HealthController],
  providers: [
    HealthAccess,
    Readiness,
    ApiTokenGuard,
    { provide: ProviderProbe, inject: [SWITCHBOARD_CONFIG], useFactory: (config: SwitchboardConfig) => new ProviderProbe(config.cli.provider) },
  ],
})
export class HealthModule {}
