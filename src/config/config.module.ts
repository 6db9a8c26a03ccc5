import { Global, Module } from '@nestjs/common';
import { loadConfig, type SwitchboardConfig } from './switchboard-config';

export const SWITCHBOARD_CONFIG = Symbol('SWITCHBOARD_CONFIG');

/** Validated configuration, injected with @Inject(SWITCHBOARD_CONFIG). Tests pass their own via forRoot. */
@Global()
@Module({})
export class ConfigModule {
  static forRoot(config: SwitchboardConfig = loadConfig()) {
    return {
      module: ConfigModule,
      providers: [{ provide: SWITCHBOARD_CONFIG, useValue: config }],
      exports: [SWITCHBOARD_CONFIG],
    };
  }
}
