import { Module } from '@nestjs/common';
import { ApiTokenGuard } from '../common/auth/api-token.guard';
import { HealthController } from './health.controller';
import { Readiness } from './readiness';

@Module({ controllers: [HealthController], providers: [Readiness, ApiTokenGuard] })
export class HealthModule {}
