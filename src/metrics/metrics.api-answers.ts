import { type ControllerAnswers, text } from '../common';
import type { MetricsController } from './metrics.controller';

/** What GET /metrics answers. */
export const METRICS_ANSWERS: ControllerAnswers<MetricsController> = {
  answers: {
    scrape: {
      status: 200,
      ...text(
        'Prometheus text format',
        'text/plain',
        '# HELP switchboard_live_sessions Live sessions on this instance\n# TYPE switchboard_live_sessions gauge\nswitchboard_live_sessions 2\n',
      ),
    },
  },
};
