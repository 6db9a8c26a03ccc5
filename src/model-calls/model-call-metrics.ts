import { Inject, OnModuleDestroy } from '@nestjs/common';
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { Subscription } from 'rxjs';
import { type MetricsContribution, ProvidesMetrics } from '../common';
import { SWITCHBOARD_CONFIG, type SwitchboardConfig } from '../config';
import { ModelLabels } from './model-labels';
import type { EndedModelCall } from './model-call-recording';
import { ModelRoute } from './model-route';

const DURATION_BUCKETS_SECONDS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30, 60, 120, 300];
const TTFB_BUCKETS_SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30];
const OUTCOMES: ReadonlyArray<EndedModelCall['outcome']> = ['succeeded', 'failed', 'cancelled', 'refused'];

/**
 * issue 25: the model calls this instance forwarded (ModelRoute's `ended$`, never the store's events, so
 * instances sharing a database do not count each other's calls): calls by model and outcome, duration and
 * time to first byte, tokens and cost by model. `model` is bounded (ModelLabels): priced models, then the
 * first 50 seen, the rest `other`.
 */
@ProvidesMetrics()
export class ModelCallMetrics implements MetricsContribution, OnModuleDestroy {
  private subscription?: Subscription;

  constructor(
    private readonly route: ModelRoute,
    @Inject(SWITCHBOARD_CONFIG) private readonly config: SwitchboardConfig,
  ) {}

  registerMetrics(registry: Registry): void {
    const route = this.route;
    const registers = [registry];
    const prices = this.config.modelCalls.prices;
    const models = new ModelLabels([...(prices?.models.keys() ?? [])]);
    const calls = new Counter({
      name: 'switchboard_model_calls_total',
      help: 'Model calls this instance forwarded or refused, by model and outcome (succeeded, failed, cancelled, refused)',
      labelNames: ['model', 'outcome'],
      registers,
    });
    const duration = new Histogram({
      name: 'switchboard_model_call_duration_seconds',
      help: 'Model calls from the whole request to the end of the answer, by model',
      labelNames: ['model'],
      buckets: DURATION_BUCKETS_SECONDS,
      registers,
    });
    const ttfb = new Histogram({
      name: 'switchboard_model_call_ttfb_seconds',
      help: "Model calls from the whole request to the provider's first byte, by model",
      labelNames: ['model'],
      buckets: TTFB_BUCKETS_SECONDS,
      registers,
    });
    const tokens = new Counter({
      name: 'switchboard_model_tokens_total',
      help: 'Tokens of model calls by model and kind: input, output, and the parts of them that were cached_input and reasoning',
      labelNames: ['model', 'kind'],
      registers,
    });
    const cost = new Counter({
      name: 'switchboard_model_cost_total',
      help: 'Cost of model calls by model, in the price table currency (SWITCHBOARD_MODEL_PRICES)',
      labelNames: ['model', 'currency'],
      registers,
    });
    const unpriced = new Counter({
      name: 'switchboard_model_calls_unpriced_total',
      help: 'Model calls with usage but no price (the model is not in SWITCHBOARD_MODEL_PRICES): their cost is unknown',
      labelNames: ['model'],
      registers,
    });
    new Gauge({
      name: 'switchboard_model_calls_in_flight',
      help: 'Model calls this instance is forwarding now',
      registers,
      collect() {
        this.set(route.inFlight());
      },
    });
    // Each priced model shows from the start, at 0: a rate over it needs no first call.
    for (const model of new Set([...(prices?.models.keys() ?? [])].map((m) => models.of(m)))) {
      for (const outcome of OUTCOMES) calls.inc({ model, outcome }, 0);
    }

    this.subscription = route.ended$.subscribe((call) => {
      const model = models.of(call.model);
      calls.inc({ model, outcome: call.outcome });
      if (call.durationMs !== undefined) duration.observe({ model }, call.durationMs / 1000);
      if (call.ttfbMs !== undefined) ttfb.observe({ model }, call.ttfbMs / 1000);
      const { inputTokens, outputTokens, cachedInputTokens, reasoningTokens } = call.usage;
      if (inputTokens) tokens.inc({ model, kind: 'input' }, inputTokens);
      if (outputTokens) tokens.inc({ model, kind: 'output' }, outputTokens);
      if (cachedInputTokens) tokens.inc({ model, kind: 'cached_input' }, cachedInputTokens);
      if (reasoningTokens) tokens.inc({ model, kind: 'reasoning' }, reasoningTokens);
      if (call.cost) cost.inc({ model, currency: call.cost.currency }, call.cost.amount);
      else if (inputTokens !== undefined || outputTokens !== undefined) unpriced.inc({ model });
    });
  }

  onModuleDestroy(): void {
    this.subscription?.unsubscribe();
  }
}
