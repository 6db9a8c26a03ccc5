import { Controller, Get, Res } from '@nestjs/common';
import { ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { PublicWhen, DocumentedAnswers } from '../common';
import { SwitchboardMetrics } from './switchboard-metrics';
import { METRICS_ANSWERS } from './metrics.api-answers';

/** `GET /metrics` in the Prometheus text format; the API token rule of /api unless SWITCHBOARD_METRICS_PUBLIC=true. */
@ApiTags('operations')
@DocumentedAnswers(METRICS_ANSWERS)
@Controller('metrics')
export class MetricsController {
  constructor(private readonly metrics: SwitchboardMetrics) {}

  @PublicWhen((config) => config.metrics.public)
  @Get()
  @ApiOperation({ summary: 'Prometheus metrics (text format); open without the token when SWITCHBOARD_METRICS_PUBLIC=true' })
  @ApiProduces('text/plain')
  async scrape(@Res() response: Response): Promise<void> {
    const { contentType, body } = await this.metrics.scrape();
    // As given: Express's type() would reorder the version parameter Prometheus reads.
    response.setHeader('Content-Type', contentType);
    response.end(body);
  }
}
