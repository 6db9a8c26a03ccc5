import { Inject, Injectable } from '@nestjs/common';
import { AgentLibrary, UnknownAgentError } from '../agents';
import { SWITCHBOARD_CONFIG, type SwitchboardConfig } from '../config';
import { CopilotCliConnection } from '../copilot-cli';
import { assertBudgetAvailable, type Budget, routeForBudget } from '../sessions';

/**
 * What a schedule names outside itself, checked when it is saved (the decider checks the rest): the
 * agent exists (422 `unknown_agent`), and a cost budget can be kept here (422 `budget_unavailable`).
 * Each firing's run start checks them again: an agent deleted later fails that firing, with the reason.
 */
@Injectable()
export class ScheduleReferences {
  constructor(
    private readonly library: AgentLibrary,
    @Inject(SWITCHBOARD_CONFIG) private readonly config: SwitchboardConfig,
    private readonly cli: CopilotCliConnection,
  ) {}

  async assertAgent(agentId: string): Promise<void> {
    if (!(await this.library.find(agentId))) throw new UnknownAgentError(agentId);
  }

  async assertBudget(budget: Budget | null): Promise<void> {
    if (budget?.max_cost === undefined) return;
    assertBudgetAvailable(budget, this.config.modelCalls.prices, await routeForBudget(budget, this.cli), 'budget.maxCost');
  }
}
