import { useId } from 'react';
import { TagInput } from '../ui/TagInput';
import {
  BUDGET_FIELDS,
  budgetOf,
  type KindAnswer,
  type KindOption,
  type PolicyDraft,
  type SessionSettingsDraft,
  type WorkspaceDraft,
} from '../session-settings';

/**
 * Delegation, the permission policy and the budget of a session: on the new-session page (what this
 * session gets) and in the agent editor (what its sessions get unless started otherwise). A kind the
 * operator refuses is shown disabled with the reason and the setting that opens it (sessionOptions).
 */
export function SessionSettingsFields({
  draft,
  onChange,
  kindOptions,
  mode,
  hasSubAgents,
  toolSuggestions,
  disabled = false,
  repositories = [],
}: {
  draft: SessionSettingsDraft;
  onChange: (next: SessionSettingsDraft) => void;
  /** undefined while the service's options load: every kind offered, the service still checks. */
  kindOptions: readonly KindOption[] | undefined;
  /** 'agent': delegation may stay automatic, and the texts speak of the agent's sessions. */
  mode: 'session' | 'agent';
  hasSubAgents: boolean;
  toolSuggestions: readonly string[];
  disabled?: boolean;
  /** SWITCHBOARD_REPOSITORIES (sessionOptions): none, and the workspace fields are not offered. */
  repositories?: readonly string[];
}) {
  const id = useId();
  const { problems } = budgetOf(draft.budget);
  return (
    <>
      <fieldset className="session-settings" aria-describedby={`${id}-delegation-note`}>
        <legend>Delegation</legend>
        {mode === 'session' ? (
          <label className="checkbox-line">
            <input
              type="checkbox"
              checked={draft.delegation ?? false}
              disabled={disabled}
              onChange={(e) => onChange({ ...draft, delegation: e.target.checked })}
            />{' '}
            Let the agent start runs of library agents (agent_run)
          </label>
        ) : (
          <label className="select-line">
            <span>Its sessions may start runs</span>
            <select
              value={draft.delegation === undefined ? 'auto' : draft.delegation ? 'on' : 'off'}
              disabled={disabled}
              onChange={(e) => onChange({ ...draft, delegation: e.target.value === 'auto' ? undefined : e.target.value === 'on' })}
            >
              <option value="auto">Automatic: {hasSubAgents ? 'yes, it has sub-agents' : 'no, it has no sub-agents'}</option>
              <option value="on">Yes</option>
              <option value="off">No</option>
            </select>
          </label>
        )}
        <p id={`${id}-delegation-note`} className="help">
          Delegation gives the main agent agent_run, agent_stop and agent_output: each run appears under Runs.
          {mode === 'agent' && ' Automatic: on for a lead (an agent with sub-agents).'}
        </p>
      </fieldset>

      <PermissionFields
        policy={draft}
        onChange={(policy) => onChange({ ...draft, ...policy })}
        kindOptions={kindOptions}
        toolSuggestions={toolSuggestions}
        disabled={disabled}
      />

      <fieldset className="session-settings budget-fields" aria-describedby={`${id}-budget-note`}>
        <legend>Budget</legend>
        <div className="field-row">
          {BUDGET_FIELDS.map(({ field, label, decimal }) => (
            <div key={field} className="field narrow">
              <label htmlFor={`${id}-${field}`}>{label}</label>
              <input
                id={`${id}-${field}`}
                inputMode={decimal ? 'decimal' : 'numeric'}
                value={draft.budget[field]}
                placeholder="no limit"
                disabled={disabled}
                aria-invalid={problems[field] ? true : undefined}
                aria-describedby={problems[field] ? `${id}-${field}-problem` : undefined}
                onChange={(e) => onChange({ ...draft, budget: { ...draft.budget, [field]: e.target.value } })}
              />
              {problems[field] && (
                <p id={`${id}-${field}-problem`} className="field-problem">
                  {problems[field]}
                </p>
              )}
            </div>
          ))}
        </div>
        <p id={`${id}-budget-note`} className="help">
          Limits over every run {mode === 'agent' ? 'its sessions start' : 'this session starts'} and their runs; past one, the runs are stopped. Max cost
          is in the service's price table currency and needs a price table (SWITCHBOARD_MODEL_PRICES).
        </p>
      </fieldset>

      {(repositories.length > 0 || draft.workspace.repository !== '') && (
        <WorkspaceFields
          workspace={draft.workspace}
          onChange={(workspace) => onChange({ ...draft, workspace })}
          repositories={repositories}
          mode={mode}
          disabled={disabled}
        />
      )}
    </>
  );
}

/**
 * The permission policy's fields: an answer per kind (a kind the operator refuses disabled, with the setting
 * that opens it) and the tools that ask a person. Also the schedule editor's: what each firing's run may do.
 */
export function PermissionFields({
  policy,
  onChange,
  kindOptions,
  toolSuggestions,
  disabled = false,
}: {
  policy: PolicyDraft;
  onChange: (next: PolicyDraft) => void;
  /** undefined while the service's options load: every kind offered, the service still checks. */
  kindOptions: readonly KindOption[] | undefined;
  toolSuggestions: readonly string[];
  disabled?: boolean;
}) {
  const id = useId();
  const setKind = (kind: string, answer: KindAnswer) => onChange({ ...policy, kinds: { ...policy.kinds, [kind]: answer } });
  const kinds: readonly KindOption[] = kindOptions ?? Object.keys(policy.kinds).map((kind) => ({ kind, description: '', allowed: true }));
  return (
    <fieldset className="session-settings" aria-describedby={`${id}-policy-note`}>
      <legend>Permissions</legend>
      <ul className="kind-rows">
        {kinds.map((option) => {
          const answer = policy.kinds[option.kind] ?? 'deny';
          const refused = !option.allowed;
          const noteId = `${id}-kind-${option.kind}`;
          const note = refused
            ? `Refused by the operator: ${option.refusedReason ?? 'not allowed here'}.${option.enabledBy ? ` Set ${option.enabledBy} to allow it.` : ''}`
            : option.note;
          return (
            <li key={option.kind} className={refused ? 'kind-row disabled' : 'kind-row'}>
              <label>
                <span>
                  <strong>{option.kind}</strong>
                  {option.description && <span className="muted"> {option.description}</span>}
                </span>
                <select
                  value={answer}
                  // A refused kind already picked (an older default) stays changeable, so it can be set back to deny.
                  disabled={disabled || (refused && answer === 'deny')}
                  aria-invalid={refused && answer !== 'deny' ? true : undefined}
                  aria-describedby={note ? noteId : undefined}
                  onChange={(e) => setKind(option.kind, e.target.value as KindAnswer)}
                >
                  <option value="deny">{option.kind === 'custom-tool' ? 'Own tools only' : 'Deny'}</option>
                  <option value="ask">Ask a person</option>
                  <option value="allow">Allow</option>
                </select>
              </label>
              {note && (
                <span id={noteId} className={refused && answer !== 'deny' ? 'choice-note problem-text' : 'choice-note muted'}>
                  {note}
                </span>
              )}
            </li>
          );
        })}
      </ul>
      <TagInput
        label="Ask a person before these tools"
        values={policy.askTools}
        onChange={(askTools) => onChange({ ...policy, askTools })}
        suggestions={toolSuggestions}
        help="Tool names (agent_run, a webhook tool, a built-in) whose calls wait in Approvals even when their kind is allowed."
      />
      <p id={`${id}-policy-note`} className="help">
        Ask a person: the request waits in Approvals until someone approves or denies it. Deny: refused at once.
      </p>
    </fieldset>
  );
}

/**
 * issue 42: the git repository to work in, a worktree of its own (offered only when the operator lists
 * repositories). Also the schedule editor's: each firing's run works in one.
 */
export function WorkspaceFields({
  workspace,
  onChange,
  repositories,
  mode,
  disabled,
}: {
  workspace: WorkspaceDraft;
  onChange: (next: WorkspaceDraft) => void;
  repositories: readonly string[];
  mode: 'session' | 'agent' | 'schedule';
  disabled: boolean;
}) {
  const id = useId();
  const who = { session: 'The session works', agent: 'Its sessions work', schedule: "Each firing's run works" }[mode];
  return (
    <fieldset className="session-settings" aria-describedby={`${id}-workspace-note`}>
      <legend>Workspace</legend>
      <div className="field">
        <label htmlFor={`${id}-repository`}>Repository</label>
        <input
          id={`${id}-repository`}
          list={`${id}-repositories`}
          value={workspace.repository}
          placeholder="none: the shared working folder"
          disabled={disabled}
          onChange={(e) => onChange({ ...workspace, repository: e.target.value })}
        />
        <datalist id={`${id}-repositories`}>
          {repositories.map((r) => (
            <option key={r} value={r} />
          ))}
        </datalist>
      </div>
      <div className="field-row">
        <div className="field narrow">
          <label htmlFor={`${id}-ref`}>Start from</label>
          <input
            id={`${id}-ref`}
            value={workspace.ref}
            placeholder="its HEAD"
            disabled={disabled || workspace.repository === ''}
            onChange={(e) => onChange({ ...workspace, ref: e.target.value })}
          />
        </div>
        <label className="select-line">
          <span>Merge finished runs</span>
          <select
            value={workspace.merge}
            disabled={disabled || workspace.repository === ''}
            onChange={(e) => onChange({ ...workspace, merge: e.target.value === 'manual' ? 'manual' : 'auto' })}
          >
            <option value="auto">At once</option>
            <option value="manual">When a person merges</option>
          </select>
        </label>
      </div>
      <p id={`${id}-workspace-note`} className="help">
        {who} in a git worktree of its own, on a branch of its own; each run gets one from its lead&apos;s, merged back when it completes. Repositories the
        operator allows: {repositories.join(', ') || 'none listed'}.
      </p>
    </fieldset>
  );
}
