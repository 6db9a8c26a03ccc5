import { type BudgetFigures, budgetLines, sessionPolicyOf } from './session-policy';

/** The chat's side panel part on what the session may do: delegate, which permissions, within which budget. */
export function SessionPolicyPanel({ config, budget }: { config: unknown; budget?: BudgetFigures }) {
  const policy = sessionPolicyOf(config);
  const list = (values: string[], none: string) => (values.length ? values.join(', ') : none);
  const lines = budget ? budgetLines(budget) : [];
  return (
    <div className="agent-setup session-policy">
      <div>
        <h3>Delegation</h3>
        <p className="small" data-testid="session-delegation">
          {policy.delegation ? 'On: the agent can start runs of other agents (agent_run)' : 'Off: the agent cannot start runs'}
        </p>
      </div>
      <div>
        <h3>Permissions</h3>
        <dl className="small policy-list" data-testid="session-permissions">
          <dt>Allowed</dt>
          <dd>
            {list(policy.allowKinds, 'nothing beyond its own tools')}
            {!policy.approveOwnTools && ' (its own tools are refused)'}
          </dd>
          <dt>Asks a person for</dt>
          <dd>{list([...policy.askKinds, ...policy.askTools.map((tool) => `tool ${tool}`)], 'nothing')}</dd>
        </dl>
      </div>
      <div>
        <h3>Budget</h3>
        {lines.length ? (
          <ul className="small budget-lines" data-testid="session-budget">
            {lines.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        ) : (
          <p className="small" data-testid="session-budget">
            No budget: runs are limited by the run policy only
          </p>
        )}
      </div>
    </div>
  );
}
