import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { ApiError, onLiveConnection, request, subscribe } from '../api/client';
import { useCoalesced, useLatest, useLoad } from '../api/hooks';
import { linkHandler, navigate } from '../app/router';
import type { DraftCheckQuery } from '../gql/graphql';
import { ChoiceList, type Choice } from '../ui/ChoiceList';
import { ErrorNote } from '../ui/ErrorNote';
import { TagInput } from '../ui/TagInput';
import { type AgentDraft, draftOf, emptyDraft, fieldOfProblem, type HookDraft, inputOf } from './agent-draft';
import {
  AgentLibraryChangedSubscription,
  AgentQuery,
  CreateAgentMutation,
  DeleteAgentMutation,
  DraftCheckQuery as DraftCheck,
  EditorChoicesQuery,
  UpdateAgentMutation,
} from './operations';

type Check = DraftCheckQuery['agentDraftCheck'];

const asApiError = (error: unknown) => (error instanceof ApiError ? error : new ApiError(String(error), 'error', 0));

/** Create (no agentId) or edit an agent: every field, the sub-agent selector, live eligibility. */
export function AgentEditorPage({ agentId }: { agentId?: string }) {
  const editing = agentId !== undefined;
  const agent = useLoad(async () => (agentId ? (await request(AgentQuery, { id: agentId })).agent : null), agentId ?? 'new');
  const choices = useLoad(() => request(EditorChoicesQuery, { exclude: agentId ?? null }), agentId ?? 'new');

  const [draft, setDraft] = useState<AgentDraft>(emptyDraft);
  const [loadedVersion, setLoadedVersion] = useState<number | undefined>();
  const [changedElsewhere, setChangedElsewhere] = useState<{ version: number; deleted: boolean } | undefined>();
  const [check, setCheck] = useState<Check | undefined>();
  const [saveError, setSaveError] = useState<ApiError | undefined>();
  const [saving, setSaving] = useState(false);
  const [saved, setSaved] = useState<string | undefined>();
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const loadedVersionRef = useLatest(loadedVersion);

  // The form starts from the agent as loaded (again after "Reload"): state adjusted while rendering.
  const [formFrom, setFormFrom] = useState(agent.data);
  if (agent.data !== formFrom) {
    setFormFrom(agent.data);
    if (agent.data) {
      setDraft(draftOf(agent.data));
      setLoadedVersion(agent.data.version);
      setChangedElsewhere(undefined);
    }
  }

  // The library's rules, asked of the service for the draft as it is typed (never a copy in the browser).
  const checkNow = useCallback(
    async (current: AgentDraft) => {
      if (!current.name.trim()) return;
      try {
        setCheck((await request(DraftCheck, { id: agentId ?? (current.id || null), input: inputOf(current) })).agentDraftCheck);
      } catch {
        // A draft the service cannot read yet (a field too long...): the save shows the problem by its field.
      }
    },
    [agentId],
  );
  const draftRef = useLatest(draft);
  const checkSoon = useCoalesced(() => void checkNow(draftRef.current), 200);
  useEffect(() => {
    checkSoon();
  }, [draft, checkSoon]);

  // Another tab or the API changing the library: refresh the choices and the check; this agent itself
  // changing is a notice that offers a reload, never a silent overwrite of the form.
  const refreshChoices = useCoalesced(() => {
    choices.reload();
    void checkNow(draftRef.current);
  }, 150);
  useEffect(() => onLiveConnection(refreshChoices), [refreshChoices]);
  useEffect(
    () =>
      subscribe(AgentLibraryChangedSubscription, {}, ({ agentLibraryChanged: change }) => {
        refreshChoices();
        if (agentId && change.agentId === agentId && loadedVersionRef.current !== undefined && change.version > loadedVersionRef.current) {
          setChangedElsewhere({ version: change.version, deleted: change.change === 'deleted' });
        }
      }),
    [agentId, refreshChoices, loadedVersionRef],
  );

  const set = <K extends keyof AgentDraft>(key: K, value: AgentDraft[K]) => {
    setSaved(undefined);
    setDraft((d) => ({ ...d, [key]: value }));
  };

  const problemsByField = useMemo(() => {
    const byField = new Map<string, string[]>();
    for (const [path, reasons] of saveError?.fieldProblems() ?? []) {
      if (path.startsWith('sub_agents.') && saveError?.code === 'invalid_sub_agents') continue; // shown on the sub-agent itself
      const field = fieldOfProblem(path);
      byField.set(field, [...(byField.get(field) ?? []), ...reasons]);
    }
    return byField;
  }, [saveError]);
  const fieldProblem = (field: string) => problemsByField.get(field)?.join('; ');

  // Sub-agents: the eligible ones, plus any selected one that is not (flagged with the service's reason).
  const subAgentProblems = useMemo(() => {
    const byId = new Map<string, string[]>();
    for (const p of check?.subAgentProblems ?? []) byId.set(p.id, [...(byId.get(p.id) ?? []), p.reason]);
    if (saveError?.code === 'invalid_sub_agents') {
      for (const [path, reasons] of saveError.fieldProblems()) {
        const id = path.slice('sub_agents.'.length);
        if (path.startsWith('sub_agents.') && !byId.has(id)) byId.set(id, reasons);
      }
    }
    // Only what is still selected counts.
    return new Map([...byId].filter(([id]) => draft.subAgents.includes(id)));
  }, [check, saveError, draft.subAgents]);

  const subAgentChoices: Choice[] = useMemo(() => {
    const eligible = choices.data?.eligibleSubAgents ?? [];
    const names = new Map((choices.data?.agents ?? []).map((a) => [a.id, a]));
    const list: Choice[] = eligible.map((a) => ({
      value: a.id,
      label: `${a.icon || '🤖'} ${a.name}`,
      hint: a.id,
      problem: subAgentProblems.get(a.id)?.join('; '),
    }));
    for (const id of draft.subAgents) {
      if (eligible.some((a) => a.id === id)) continue;
      const known = names.get(id);
      list.push({
        value: id,
        label: known ? `${known.icon || '🤖'} ${known.name}` : id,
        hint: known ? id : undefined,
        problem: subAgentProblems.get(id)?.join('; ') ?? 'cannot be a sub-agent of this agent',
      });
    }
    return list;
  }, [choices.data, draft.subAgents, subAgentProblems]);

  const mcpChoices: Choice[] = useMemo(() => {
    const servers = choices.data?.mcpServers.servers ?? [];
    const list: Choice[] = servers.map((s) => ({ value: s.name, label: s.name, hint: s.type }));
    for (const name of draft.mcpServers) {
      if (!servers.some((s) => s.name === name))
        list.push({ value: name, label: name, problem: 'not in the MCP registry (SWITCHBOARD_MCP_CONFIG); sessions of this agent cannot start' });
    }
    return list;
  }, [choices.data, draft.mcpServers]);

  const flagged = [...subAgentProblems.keys()];
  const blocked = flagged.length > 0;
  const saveBlockedId = useId();

  const save = async () => {
    setSaving(true);
    setSaveError(undefined);
    setSaved(undefined);
    try {
      if (editing) {
        const { updateAgent } = await request(UpdateAgentMutation, { id: agentId, input: inputOf(draft), expectedVersion: loadedVersion ?? null });
        setLoadedVersion(updateAgent.version);
        setChangedElsewhere(undefined);
        setSaved(`Saved (version ${updateAgent.version}).`);
      } else {
        const { createAgent } = await request(CreateAgentMutation, { input: { ...inputOf(draft), id: draft.id.trim() || null } });
        navigate(`/agents/${createAgent.id}`);
      }
    } catch (error) {
      setSaveError(asApiError(error));
    } finally {
      setSaving(false);
    }
  };

  const remove = async () => {
    try {
      await request(DeleteAgentMutation, { id: agentId!, expectedVersion: loadedVersion ?? null });
      navigate('/agents');
    } catch (error) {
      setConfirmingDelete(false);
      setSaveError(asApiError(error));
    }
  };

  if (editing && agent.data === null) {
    return (
      <section className="page">
        <h1>Agent not found</h1>
        <p>
          There is no agent <code>{agentId}</code> (it may have been deleted).{' '}
          <a href="/agents" onClick={linkHandler('/agents')}>
            Back to the library
          </a>
        </p>
      </section>
    );
  }
  if (editing && !agent.data) {
    return (
      <section className="page">
        <h1>Agent</h1>
        <ErrorNote error={agent.error} title="The agent could not be loaded" />
        {!agent.error && <p className="muted">Loading…</p>}
      </section>
    );
  }

  const conflict = saveError?.code === 'expected_version_conflict';
  const title = editing ? draft.name || agentId : 'New agent';

  return (
    <section className="page editor" aria-labelledby="editor-title">
      <nav aria-label="Breadcrumb" className="breadcrumb">
        <a href="/agents" onClick={linkHandler('/agents')}>
          Agents
        </a>{' '}
        / <span aria-current="page">{editing ? agentId : 'new'}</span>
      </nav>
      <div className="page-head">
        <div>
          <h1 id="editor-title">
            <span aria-hidden="true">{draft.icon || '🤖'}</span> {title}
          </h1>
          <p className="muted">{editing ? 'Edit the agent; the summary on the right follows your changes.' : 'A new agent for the library.'}</p>
        </div>
        {editing && (
          <div className="page-actions">
            <button type="button" className="danger" onClick={() => setConfirmingDelete(true)}>
              Delete
            </button>
          </div>
        )}
      </div>

      {changedElsewhere && (
        <div className="warning-note" role="alert">
          {changedElsewhere.deleted
            ? 'This agent was deleted elsewhere.'
            : `Someone else saved this agent (now version ${changedElsewhere.version}) since you opened it.`}{' '}
          {!changedElsewhere.deleted && (
            <button type="button" onClick={agent.reload}>
              Reload their version
            </button>
          )}
        </div>
      )}
      {conflict ? (
        <div className="warning-note" role="alert">
          Not saved: someone else saved this agent first ({saveError.message}). Reload to see their changes, then apply yours again.{' '}
          <button
            type="button"
            onClick={() => {
              setSaveError(undefined);
              agent.reload();
            }}
          >
            Reload
          </button>
        </div>
      ) : (
        saveError && problemsByField.size === 0 && saveError.code !== 'invalid_sub_agents' && <ErrorNote error={saveError} title="Not saved" />
      )}
      {saveError && problemsByField.size > 0 && (
        <div className="error-note" role="alert">
          Not saved: fix the fields marked below.
        </div>
      )}
      {saveError?.code === 'invalid_sub_agents' && (
        <div className="error-note" role="alert">
          Not saved: {saveError.message}
        </div>
      )}
      <ErrorNote error={choices.error} title="The choices could not be loaded" />

      <div className="editor-layout">
        <form
          id="agent-form"
          className="agent-form"
          aria-labelledby="editor-title"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            if (!blocked) void save();
          }}
        >
          <fieldset>
            <legend>Identity</legend>
            <div className="field-row">
              <Field label="Name" problem={fieldProblem('name')} help="Shown in the library and to the main agent.">
                {(props) => <input {...props} value={draft.name} onChange={(e) => set('name', e.target.value)} required maxLength={200} />}
              </Field>
              <Field label="Icon" problem={fieldProblem('icon')} help="An emoji." narrow>
                {(props) => <input {...props} value={draft.icon} onChange={(e) => set('icon', e.target.value)} maxLength={16} />}
              </Field>
            </div>
            {!editing && (
              <Field
                label="Id"
                problem={fieldProblem('id')}
                help="A slug (lowercase letters, digits, dashes). Left empty, it is made from the name. It cannot be changed later."
              >
                {(props) => (
                  <input {...props} value={draft.id} onChange={(e) => set('id', e.target.value)} pattern="[a-z0-9]+(-[a-z0-9]+)*" maxLength={64} />
                )}
              </Field>
            )}
            <Field
              label="Description"
              problem={fieldProblem('description')}
              help="The main agent picks sub-agents by their description: say what this one is good at."
            >
              {(props) => <textarea {...props} rows={2} value={draft.description} onChange={(e) => set('description', e.target.value)} maxLength={4000} />}
            </Field>
            <Field label="Model" problem={fieldProblem('model')} help="Empty: the service's default model (COPILOT_MODEL).">
              {(props) => <input {...props} value={draft.model} onChange={(e) => set('model', e.target.value)} maxLength={200} />}
            </Field>
          </fieldset>

          <fieldset>
            <legend>Prompt</legend>
            <div className="radio-row" role="radiogroup" aria-label="System message mode">
              <label>
                <input type="radio" name="mode" value="append" checked={draft.mode === 'append'} onChange={() => set('mode', 'append')} /> Append to the
                CLI's system message
              </label>
              <label>
                <input type="radio" name="mode" value="replace" checked={draft.mode === 'replace'} onChange={() => set('mode', 'replace')} /> Replace it
              </label>
            </div>
            <Field label="System message" problem={fieldProblem('content')} help="What this agent is and how it works. Sub-agents need one.">
              {(props) => <textarea {...props} rows={8} className="mono" value={draft.content} onChange={(e) => set('content', e.target.value)} />}
            </Field>
          </fieldset>

          <fieldset>
            <legend>Tools</legend>
            <TagInput
              label="Built-in tools allowed"
              values={draft.builtin}
              onChange={(v) => set('builtin', v)}
              suggestions={choices.data?.knownBuiltinTools ?? []}
              help="Empty: every built-in tool. Listing tools limits the agent to them (sub-agents: the only way to limit)."
              problem={fieldProblem('builtin')}
            />
            <TagInput
              label="Custom tools"
              values={draft.custom}
              onChange={(v) => set('custom', v)}
              help="Tools a session provides (webhooks). An agent with custom tools cannot be a sub-agent."
              problem={fieldProblem('custom')}
            />
            <TagInput
              label="Excluded built-in tools"
              values={draft.excludedBuiltin}
              onChange={(v) => set('excludedBuiltin', v)}
              suggestions={choices.data?.knownBuiltinTools ?? []}
              help="Built-in tools taken away. An agent that excludes tools cannot be a sub-agent: use the allowlist instead."
              problem={fieldProblem('excludedBuiltin')}
            />
          </fieldset>

          <ChoiceList
            legend="MCP servers"
            choices={mcpChoices}
            selected={draft.mcpServers}
            onChange={(v) => set('mcpServers', v)}
            empty={
              choices.data?.mcpServers.problem ??
              'No MCP servers are configured. The operator lists them in the file SWITCHBOARD_MCP_CONFIG names ({ "mcpServers": { … } }).'
            }
          />
          {fieldProblem('mcpServers') && <p className="field-problem">{fieldProblem('mcpServers')}</p>}

          <HooksField hooks={draft.hooks} types={choices.data?.hookTypes ?? []} onChange={(v) => set('hooks', v)} problem={fieldProblem('hooks')} />

          <ChoiceList
            legend="Sub-agents"
            choices={subAgentChoices}
            selected={draft.subAgents}
            onChange={(v) => set('subAgents', v)}
            describedBy={blocked ? saveBlockedId : undefined}
            empty="No agent can be a sub-agent yet: a sub-agent needs a prompt and a description, and no custom tools, excluded tools or sub-agents of its own."
          />
        </form>
        <aside className="editor-aside" aria-label="Summary">
          <section className="aside-card" aria-labelledby="eligibility-title">
            <h2 id="eligibility-title">As a sub-agent</h2>
            <div className="eligibility" role="status" aria-live="polite">
              {check === undefined ? (
                <p className="muted">Type a name to see whether it can be a sub-agent.</p>
              ) : check.composable ? (
                <p>
                  <span className="badge composable">🧩 Composable</span> It can join a team.
                </p>
              ) : (
                <>
                  <p className="not-composable">Cannot be a sub-agent:</p>
                  <ul className="reasons">
                    {check.composableReasons.map((reason) => (
                      <li key={reason}>{reason}</li>
                    ))}
                  </ul>
                </>
              )}
            </div>
          </section>
          <section className="aside-card" aria-labelledby="team-title">
            <h2 id="team-title">Team</h2>
            {draft.subAgents.length === 0 ? (
              <p className="muted">No sub-agents: this agent works alone. Pick sub-agents below to make it a team lead.</p>
            ) : (
              <ul className="team-members">
                {subAgentChoices
                  .filter((c) => draft.subAgents.includes(c.value))
                  .map((c) => (
                    <li key={c.value} className={c.problem ? 'problem-text' : undefined}>
                      {c.problem ? '⚠ ' : ''}
                      {c.label}
                    </li>
                  ))}
              </ul>
            )}
            {editing && agent.data && agent.data.includedIn.length > 0 && <p className="muted">In the team of {agent.data.includedIn.join(', ')}.</p>}
          </section>
          <div className="form-actions">
            <button
              type="submit"
              form="agent-form"
              className="primary"
              disabled={blocked || saving}
              aria-describedby={blocked ? saveBlockedId : undefined}
            >
              {saving ? 'Saving…' : editing ? 'Save' : 'Create agent'}
            </button>
            <a href="/agents" onClick={linkHandler('/agents')} className="button">
              Cancel
            </a>
            {blocked && (
              <p id={saveBlockedId} className="field-problem" role="alert">
                Save is blocked: {flagged.length === 1 ? 'sub-agent' : 'sub-agents'} {flagged.join(', ')} cannot be used. Remove{' '}
                {flagged.length === 1 ? 'it' : 'them'} or fix {flagged.length === 1 ? 'it' : 'them'} first.
              </p>
            )}
            {saved && (
              <p className="notice inline" role="status">
                {saved}
              </p>
            )}
          </div>
        </aside>
      </div>

      {confirmingDelete && agent.data && (
        <ConfirmDelete name={draft.name} teams={agent.data.includedIn} onCancel={() => setConfirmingDelete(false)} onConfirm={() => void remove()} />
      )}
    </section>
  );
}

/**
 * The agent's hook webhooks (docs/hooks.md): one row per handler, for the sessions and runs it is the
 * main agent of. Failure '' is the service's default: closed for preToolUse, open for the others.
 */
function HooksField({
  hooks,
  types,
  onChange,
  problem,
}: {
  hooks: HookDraft[];
  /** The service's hook types (`hookTypes`); a loaded hook's type is always offered. */
  types: readonly string[];
  onChange: (next: HookDraft[]) => void;
  problem?: string;
}) {
  const id = useId();
  const change = (i: number, patch: Partial<HookDraft>) => onChange(hooks.map((h, j) => (j === i ? { ...h, ...patch } : h)));
  return (
    <fieldset className="hooks-field" aria-describedby={`${id}-note`}>
      <legend>Hooks</legend>
      {hooks.length === 0 && <p className="muted">No hooks: tool calls go through the session&apos;s policy alone.</p>}
      <ul className="hook-rows">
        {hooks.map((hook, i) => (
          <li key={i} className="hook-row" aria-label={`Hook ${i + 1}`}>
            <label>
              <span className="visually-hidden">Hook {i + 1} type</span>
              <select value={hook.type} onChange={(e) => change(i, { type: e.target.value })}>
                {[...new Set([...types, hook.type])].map((t) => (
                  <option key={t} value={t}>
                    {t}
                  </option>
                ))}
              </select>
            </label>
            <label className="hook-url">
              <span className="visually-hidden">Hook {i + 1} URL</span>
              <input
                type="url"
                value={hook.url}
                placeholder="https://hooks.example.com/pre-tool-use"
                aria-invalid={problem ? true : undefined}
                onChange={(e) => change(i, { url: e.target.value })}
              />
            </label>
            <label>
              <span className="visually-hidden">Hook {i + 1} on failure</span>
              <select value={hook.failure} onChange={(e) => change(i, { failure: e.target.value as HookDraft['failure'] })}>
                <option value="">default ({hook.type === 'preToolUse' ? 'closed' : 'open'})</option>
                <option value="closed">closed: stop the call</option>
                <option value="open">open: let it through</option>
              </select>
            </label>
            <button type="button" className="ghost" aria-label={`Remove hook ${i + 1}`} onClick={() => onChange(hooks.filter((_, j) => j !== i))}>
              ✕
            </button>
          </li>
        ))}
      </ul>
      <button type="button" className="ghost" onClick={() => onChange([...hooks, { type: 'preToolUse', url: '', failure: '' }])}>
        + Add hook
      </button>
      <p id={`${id}-note`} className={problem ? 'field-problem' : 'help'}>
        {problem ??
          'Webhooks the CLI’s hooks are sent to, signed like tool webhooks; a preToolUse hook can deny a call or change its arguments. On failure: whether a webhook that fails or does not answer in time lets the call through.'}
      </p>
    </fieldset>
  );
}

function Field({
  label,
  help,
  problem,
  narrow,
  children,
}: {
  label: string;
  help?: string;
  problem?: string;
  narrow?: boolean;
  children: (props: { id: string; 'aria-describedby': string; 'aria-invalid': true | undefined }) => React.ReactNode;
}) {
  const id = useId();
  return (
    <div className={narrow ? 'field narrow' : 'field'}>
      <label htmlFor={id}>{label}</label>
      {children({ id, 'aria-describedby': `${id}-note`, 'aria-invalid': problem ? true : undefined })}
      <p id={`${id}-note`} className={problem ? 'field-problem' : 'help'}>
        {problem ?? help}
      </p>
    </div>
  );
}

function ConfirmDelete({ name, teams, onCancel, onConfirm }: { name: string; teams: readonly string[]; onCancel: () => void; onConfirm: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    if (!dialog.current?.open) dialog.current?.showModal();
  }, []);
  return (
    <dialog ref={dialog} className="dialog" aria-labelledby="delete-title" onCancel={onCancel}>
      <h2 id="delete-title">Delete {name}?</h2>
      {teams.length > 0 ? (
        <p>
          It is a sub-agent in the team of <strong>{teams.join(', ')}</strong>. Those agents will show it as a problem, and their sessions will not start
          until it is removed from them.
        </p>
      ) : (
        <p>No team includes it. Its history stays in the event log.</p>
      )}
      <div className="dialog-actions">
        <button type="button" onClick={onCancel} autoFocus>
          Keep it
        </button>
        <button type="button" className="danger" onClick={onConfirm}>
          Delete
        </button>
      </div>
    </dialog>
  );
}
