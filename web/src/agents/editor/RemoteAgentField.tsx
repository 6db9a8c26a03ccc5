import { Field } from '../../ui/Field';
import type { DraftFormProps } from './draft-form';

/**
 * issue 43: where the agent runs. Empty, it runs here on the Copilot CLI; an A2A agent card's URL makes it a
 * remote agent: a lead's agent_run to it is sent to that service, whose prompt, tools and team it uses.
 */
export function RemoteAgentField({ draft, set, fieldProblem }: DraftFormProps) {
  return (
    <fieldset>
      <legend>Where it runs</legend>
      <Field
        label="Remote A2A agent card"
        problem={fieldProblem('remoteA2a')}
        help="Empty: it runs here. The URL of an agent card (…/.well-known/agent-card.json) on another service: it runs there, and its prompt, model, tools and team are that service's. The service's token is the operator's setting (SWITCHBOARD_A2A_CREDENTIALS)."
      >
        {(props) => (
          <input
            {...props}
            type="url"
            placeholder="https://agents.example.com/a2a/researcher/.well-known/agent-card.json"
            value={draft.remoteA2a}
            onChange={(e) => set('remoteA2a', e.target.value)}
            maxLength={2000}
          />
        )}
      </Field>
    </fieldset>
  );
}
