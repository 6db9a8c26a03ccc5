import { OnModuleDestroy } from '@nestjs/common';
import { Counter, Gauge, type Registry } from 'prom-client';
import type { Subscription } from 'rxjs';
import { type MetricsContribution, ProvidesMetrics } from '../common';
import { CopilotCliConnection } from './copilot-cli-connection';

/** The Copilot CLI's restarts after an unexpected exit, and whether it is connected now. */
@ProvidesMetrics()
export class CliMetrics implements MetricsContribution, OnModuleDestroy {
  private subscription?: Subscription;

  constructor(private readonly cli: CopilotCliConnection) {}

  registerMetrics(registry: Registry): void {
    const cli = this.cli;
    const restarts = new Counter({
      name: 'switchboard_cli_restarts_total',
      help: 'Times the Copilot CLI exited unexpectedly and was restarted',
      registers: [registry],
    });
    this.subscription = cli.exits$.subscribe(() => restarts.inc());
    new Gauge({
      name: 'switchboard_cli_up',
      help: '1 while the Copilot CLI is connected (it starts with the first session)',
      registers: [registry],
      collect() {
        this.set(cli.isRunning ? 1 : 0);
      },
    });
  }

  onModuleDestroy(): void {
    this.subscription?.unsubscribe();
  }
}
