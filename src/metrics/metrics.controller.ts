import { Controller, Get, Headers, Inject, Res, UnauthorizedException } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { ApiTokenGuard, UNAUTHORIZED_MESSAGE } from '../common/auth/api-token.guard';
import { Public } from '../common/auth/public.decorator';
import { SWITCHBOARD_CONFIG } from '../config/config.module';
import type { SwitchboardConfig } from '../config/switchboard-config';
import { SwitchboardMetrics } from './switchboard-metrics';

/** `GET /metrics` in the Prometheus text format; the API token rule of /api unless SWITCHBOARD_METRICS_PUBLIC=true. */
@ApiExcludeController()
@Controller('metrics')
export class MetricsController {
  constructor(
    private readonly metrics: SwitchboardMetrics,
    private readonly tokens: ApiTokenGuard,
    @Inject(SWITCHBOARD_CONFIG) private readonly config: SwitchboardConfig,
  ) {}

  // @Public() lifts the global guard only; the token is checked here so the flag can open the route.
  @Public()
  @Get()
  async scrape(@Headers('authorization') authorization: string | undefined, @Res() response: Response): Promise<void> {
    if (!this.config.metrics.public && !this.tokens.allows(authorization)) {
      throw new UnauthorizedException({ code: 'unauthorized', message: UNAUTHORIZED_MESSAGE });
    }
    const { contentType, body } = await this.metrics.scrape();
    // As given: Express's type() would reorder the version parameter Prometheus reads.
    response.setHeader('Content-Type', contentType);
    response.end(body);
  }
}
