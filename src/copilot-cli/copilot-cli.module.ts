import { Global, Module } from '@nestjs/common';
import { CopilotCliConnection } from './copilot-cli-connection';

/** The connection to the Copilot CLI process, shared by every session. */
@Global()
@Module({ providers: [CopilotCliConnection], exports: [CopilotCliConnection] })
export class CopilotCliModule {}
