import { useQuery } from '@tanstack/react-query';
import { useMay } from '../api/me';
import { useId, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { type ApiError, request } from '../api/client';
import { asApiError } from '../api/mutation';
import { ErrorNote } from '../ui/ErrorNote';
import { Icon } from '../ui/icons';
import { type AgentDraft, draftOf, emptyDraft, inputOf } from './agent-draft';
import { AgentBasicsForm } from './editor/AgentBasicsForm';
import { ConfirmDelete } from './editor/ConfirmDelete';
import { DraftProblems } from './editor/DraftProblems';
import { EditorSummary } from './editor/EditorSummary';
import { HooksField } from './editor/HooksField';
import { RemoteAgentField } from './editor/RemoteAgentField';
import { McpServersEditor } from './editor/McpServersEditor';
import { SubAgentPicker } from './editor/SubAgentPicker';
import { ToolsEditor } from './editor/ToolsEditor';
import { useSubAgentChoices } from './editor/sub-agent-choices';
import { useDraftCheck } from './editor/use-draft-check';
import { useFieldProblems } from './editor/use-field-problems';
import { useLibraryChanges } from './editor/use-library-changes';
import { budgetOf } from '../session-settings';
import { SessionSettingsFields } from '../sessions';
import { useCreateAgent, useDeleteAgent, useUpdateAgent } from './mutations';
import { AgentQuery, BuiltinToolsQuery, EditorChoicesQuery } from './operations';

/**
 * Create (no agentId) or edit an agent: the page owns the draft and its save; each part of the form,
 * the problems above it and the summary beside it are components of their own (./editor).
 */
export function AgentEditorPage({ agentId }: { agentId?: string }) {
  const editing = agentId !== undefined;
  const navigate = useNavigate();
  const mayAdminister = useMay('administer');
  // Never from an older cache entry, and a new object on every answer: "Reload" resets the form even
  // when nothing changed (the form starts from each answer).
  const agent = useQuery({
    queryKey: ['agents', 'editor', agentId ?? 'new'],
    queryFn: async () => (agentId ? (await request(AgentQuery, { id: agentId })).agent : null),
    gcTime: 0,
    structuralSharing: false,
  });
  const choices = useQuery({
    queryKey: ['agents', 'editor-choices', agentId ?? 'new'],
    queryFn: () => request(EditorChoicesQuery, { exclude: agentId ?? null }),
    // Asked again whenever the page opens, never shown from another visit: the agent saved a moment ago must be a choice.
    refetchOnMount: 'always',
  });
  const builtinTools = useQuery({ queryKey: ['builtin-tools'], queryFn: () => request(BuiltinToolsQuery), staleTime: 60_000 });
  const knownBuiltinTools = builtinTools.data?.knownBuiltinTools ?? [];
  const writes = { create: useCreateAgent(), update: useUpdateAgent(), remove: useDeleteAgent() };

  const [draft, setDraft] = useState<AgentDraft>(emptyDraft);
  const [loadedVersion, setLoadedVersion] = useState<number | undefined>();
  const [saveError, setSaveError] = useState<ApiError | undefined>();
  const [saving, setSaving] = useState(false);
  const [saved, setSaved] = useState<string | undefined>();
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const { check, recheck } = useDraftCheck(agentId, draft);
  const [changedElsewhere, setChangedElsewhere] = useLibraryChanges(agentId, loadedVersion, () => {
    void choices.refetch();
    recheck();
  });

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

  const set = <K extends keyof AgentDraft>(key: K, value: AgentDraft[K]) => {
    setSaved(undefined);
    setDraft((d) => ({ ...d, [key]: value }));
  };
  const problemsByField = useFieldProblems(saveError);
  const fieldProblem = (field: string) => problemsByField.get(field)?.join('; ');
  const subAgents = useSubAgentChoices(choices.data, draft.subAgents, check, saveError);
  const budgetProblems = Object.keys(budgetOf(draft.sessionDefaults.budget).problems).length > 0;
  const blocked = subAgents.flagged.length > 0 || budgetProblems;
  const saveBlockedId = useId();

  const save = async () => {
    setSaving(true);
    setSaveError(undefined);
    setSaved(undefined);
    try {
      if (editing) {
        const { updateAgent } = await writes.update.mutateAsync({ id: agentId, input: inputOf(draft), expectedVersion: loadedVersion ?? null });
        setLoadedVersion(updateAgent.version);
        setChangedElsewhere(undefined);
        setSaved(`Saved (version ${updateAgent.version}).`);
      } else {
        const { createAgent } = await writes.create.mutateAsync({ input: { ...inputOf(draft), id: draft.id.trim() || null } });
        void navigate(`/agents/${createAgent.id}`);
      }
    } catch (error) {
      setSaveError(asApiError(error));
    } finally {
      setSaving(false);
    }
  };

  const remove = async () => {
    try {
      await writes.remove.mutateAsync({ id: agentId!, expectedVersion: loadedVersion ?? null });
      void navigate('/agents');
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
          There is no agent <code>{agentId}</code> (it may have been deleted). <Link to="/agents">Back to the library</Link>
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

  const title = editing ? draft.name || agentId : 'New agent';
  const form = { draft, set, fieldProblem };
  const remote = draft.remoteA2a.trim() !== '';

  return (
    <section className="page editor" aria-labelledby="editor-title">
      <nav aria-label="Breadcrumb" className="breadcrumb">
        <Link to="/agents">Agents</Link> / <span aria-current="page">{editing ? agentId : 'new'}</span>
      </nav>
      <div className="page-head">
        <div>
          <h1 id="editor-title">
            {draft.icon ? <span aria-hidden="true">{draft.icon}</span> : <Icon name="agent" size={24} />} {title}
          </h1>
          <p className="muted">{editing ? 'Edit the agent; the summary on the right follows your changes.' : 'A new agent for the library.'}</p>
        </div>
        {editing && mayAdminister && (
          <div className="page-actions">
            <button type="button" className="danger" onClick={() => setConfirmingDelete(true)}>
              Delete
            </button>
          </div>
        )}
      </div>

      <DraftProblems
        changedElsewhere={changedElsewhere}
        saveError={saveError}
        hasFieldProblems={problemsByField.size > 0}
        onReload={() => {
          setSaveError(undefined);
          void agent.refetch();
        }}
      />
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
          <AgentBasicsForm {...form} editing={editing} />
          <RemoteAgentField {...form} />
          {/* issue 43: a remote agent's tools, MCP servers, hooks, team and sessions are its service's. */}
          {!remote && (
            <>
              <ToolsEditor {...form} knownBuiltinTools={knownBuiltinTools} />
              <McpServersEditor {...form} registry={choices.data?.mcpServers} />
              <HooksField hooks={draft.hooks} types={choices.data?.hookTypes ?? []} onChange={(v) => set('hooks', v)} problem={fieldProblem('hooks')} />
              <SubAgentPicker draft={draft} set={set} choices={subAgents.choices} blockedNoteId={blocked ? saveBlockedId : undefined} />
              <section className="session-defaults" aria-labelledby={`${saveBlockedId}-defaults`}>
                <h2 id={`${saveBlockedId}-defaults`}>Session defaults</h2>
                <p className="help">What a session started as this agent gets unless the new-session page or the request says otherwise.</p>
                {fieldProblem('sessionDefaults') && <p className="field-problem">{fieldProblem('sessionDefaults')}</p>}
                <SessionSettingsFields
                  draft={draft.sessionDefaults}
                  onChange={(next) => set('sessionDefaults', next)}
                  kindOptions={choices.data?.sessionOptions.permissionKinds}
                  mode="agent"
                  hasSubAgents={draft.subAgents.length > 0}
                  toolSuggestions={[...(choices.data?.sessionOptions.delegationTools ?? []), ...knownBuiltinTools]}
                  repositories={choices.data?.sessionOptions.workspaceRepositories}
                />
              </section>
            </>
          )}
        </form>
        <EditorSummary
          check={check}
          team={subAgents.choices.filter((c) => draft.subAgents.includes(c.value))}
          includedIn={agent.data?.includedIn ?? []}
          editing={editing}
          saving={saving}
          saved={saved}
          flagged={subAgents.flagged}
          budgetBlocked={budgetProblems}
          blockedNoteId={saveBlockedId}
        />
      </div>

      {confirmingDelete && agent.data && (
        <ConfirmDelete name={draft.name} teams={agent.data.includedIn} onCancel={() => setConfirmingDelete(false)} onConfirm={() => void remove()} />
      )}
    </section>
  );
}
