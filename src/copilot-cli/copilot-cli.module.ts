import { Global, Module } from '@nestjs/common';
import { BuiltinToolList } from './builtin-tools';
import { CopilotCliConnection } from './copilot-cli-connection';
import { CliMetrics } from './cli-metrics';

/** The connection to the Copilot CLI process, shared by every session. */
@Global()
@Module({ providers: [CopilotCliConnection, BuiltinToolList, CliMetrics], exports: [CopilotCliConnection, BuiltinToolList] })
export class CopilotCliModule {}
