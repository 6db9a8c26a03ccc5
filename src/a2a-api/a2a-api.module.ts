import { Module } from '@nestjs/common';
import { AgentsModule } from '../agents';
import { A2aApiAccess } from './a2a-api.access';
import { A2aController } from './a2a.controller';
import { A2aTaskStore } from './a2a-task-store';
import { PushConfigs } from './push-notifications/push-configs';
import { PushNotifications } from './push-notifications/push-notifications';
import { PushNotifier } from './push-notifications/push-notifier';

/** issue 43: every library agent as an A2A agent at `/a2a/<agentId>`; a task is a run (the delegation context's). */
@Module({
  imports: [AgentsModule],
  controllers: [A2aController],
  providers: [A2aTaskStore, A2aApiAccess, PushConfigs, PushNotifier, PushNotifications],
})
export class A2aApiModule {}
