import { deciderSpec } from '../../test/fixtures/decider-spec';
import type { AgentFields } from './agent-definition';
import { type AgentCommand, agentDecider, type AgentState, initialAgentState } from './agent.decider';
import { type AgentEvent, AgentEvents, type AgentFieldChanges, isAgentEvent } from './agent.events';
import { PayloadTooLargeError, MAX_STORED_DOCUMENT_BYTES } from '../common';
import { AgentAlreadyExistsError, AgentNotFoundError } from './agent.errors';

function fields(overrides: Partial<AgentFields> = {}): AgentFields {
  return {
    name: 'Code Reviewer',
    description: 'Reviews diffs',
    icon: '🔍',
    system_message: { mode: 'replace', content: 'You review code.' },
    model: null,
    tools: { custom: [], builtin: ['grep', 'view'], excluded_builtin: [] },
    mcp_servers: ['github'],
    sub_agents: [],
    ...overrides,
  };
}

const created = (id: string, f: AgentFields = fields()): AgentEvent => ({ type: AgentEvents.created, data: { id, fields: f } });
const updated = (id: string, changes: AgentFieldChanges): AgentEvent => ({ type: AgentEvents.updated, data: { id, changes } });
const deleted = (id: string): AgentEvent => ({ type: AgentEvents.deleted, data: { id } });

const given = deciderSpec(agentDecider);
const { evolve: evolveAgent, decide: decideAgent } = agentDecider;

describe('agent decider', () => {
  describe('CreateAgent', () => {
    it('creates an absent agent with all of its fields', () => {
      given()
        .when({ type: 'CreateAgent', id: 'code-reviewer', fields: fields() })
        .then([created('code-reviewer')]);
    });

    it('creates an agent again after it was deleted', () => {
      const again = fields({ name: 'Code Reviewer 2', description: 'Reviews diffs again' });
      given(created('code-reviewer'), deleted('code-reviewer'))
        .when({ type: 'CreateAgent', id: 'code-reviewer', fields: again })
        .then([created('code-reviewer', again)]);
    });

    it('refuses to create an agent that exists, naming it', () => {
      given(created('code-reviewer'))
        .when({ type: 'CreateAgent', id: 'code-reviewer', fields: fields() })
        .thenThrows(AgentAlreadyExistsError, /Agent code-reviewer already exists/);
    });

    it('refuses to create over an agent that was updated (still active)', () => {
      given(created('code-reviewer'), updated('code-reviewer', { description: 'x' }))
        .when({ type: 'CreateAgent', id: 'code-reviewer', fields: fields() })
        .thenThrows(AgentAlreadyExistsError, /already exists/);
    });
  });

  describe('what a definition may weigh', () => {
    // The schema's length limits keep a definition under ~1 MB; the decider holds the line for any other way in.
    const heavy = fields({ description: '界'.repeat(400_000) });

    it(`refuses to create or update an agent over ${MAX_STORED_DOCUMENT_BYTES} bytes as JSON, 413 naming it`, () => {
      expect(Buffer.byteLength(JSON.stringify(heavy))).toBeGreaterThan(MAX_STORED_DOCUMENT_BYTES);
      given()
        .when({ type: 'CreateAgent', id: 'big', fields: heavy })
        .thenThrows(PayloadTooLargeError, /^agents\.big is \d+ bytes as JSON; at most 1048576/);
      given(created('big'))
        .when({ type: 'UpdateAgent', id: 'big', fields: heavy })
        .thenThrows(PayloadTooLargeError, /agents\.big/);
    });
  });

  describe('UpdateAgent', () => {
    it('emits only the fields that changed, with their new values', () => {
      const next = fields({ description: 'Reviews pull requests', tools: { custom: [], builtin: ['grep'], excluded_builtin: [] } });
      given(created('code-reviewer'))
        .when({ type: 'UpdateAgent', id: 'code-reviewer', fields: next })
        .then([updated('code-reviewer', { description: 'Reviews pull requests', tools: { custom: [], builtin: ['grep'], excluded_builtin: [] } })]);
    });

    it('compares against the state after earlier updates, not the created one', () => {
      given(created('code-reviewer'), updated('code-reviewer', { icon: '🧐' }))
        .when({ type: 'UpdateAgent', id: 'code-reviewer', fields: fields({ icon: '🧐', model: 'claude-sonnet-4' }) })
        .then([updated('code-reviewer', { model: 'claude-sonnet-4' })]);
    });

    it('notices a change of a nested value or of list order', () => {
      given(created('code-reviewer'))
        .when({
          type: 'UpdateAgent',
          id: 'code-reviewer',
          fields: fields({ system_message: { mode: 'append', content: 'You review code.' }, mcp_servers: ['github'], sub_agents: [] }),
        })
        .then([updated('code-reviewer', { system_message: { mode: 'append', content: 'You review code.' } })]);
      given(created('lead', fields({ sub_agents: ['a', 'b'] })))
        .when({ type: 'UpdateAgent', id: 'lead', fields: fields({ sub_agents: ['b', 'a'] }) })
        .then([updated('lead', { sub_agents: ['b', 'a'] })]);
    });

    it('emits nothing when nothing changed', () => {
      given(created('code-reviewer')).when({ type: 'UpdateAgent', id: 'code-reviewer', fields: fields() }).then([]);
      given(created('code-reviewer'), updated('code-reviewer', { icon: '🧐' }))
        .when({ type: 'UpdateAgent', id: 'code-reviewer', fields: fields({ icon: '🧐' }) })
        .then([]);
    });

    it('records a removed delegation policy as null, and the fold unsets it again', () => {
      const restricted = fields({ allowed_agents: ['writer'], excluded_agents: ['deployer'] });
      given(created('lead', restricted))
        .when({ type: 'UpdateAgent', id: 'lead', fields: fields() })
        .then([updated('lead', { allowed_agents: null, excluded_agents: null })]);
      const state = [created('lead', restricted), updated('lead', { allowed_agents: null })].reduce(evolveAgent, initialAgentState());
      expect(state).toEqual({ status: 'active', id: 'lead', fields: fields({ excluded_agents: ['deployer'] }) });
      expect(state.status === 'active' && 'allowed_agents' in state.fields).toBe(false);
    });

    it('refuses to update an absent agent', () => {
      given()
        .when({ type: 'UpdateAgent', id: 'ghost', fields: fields() })
        .thenThrows(AgentNotFoundError, /Agent ghost does not exist/);
    });

    it('refuses to update a deleted agent', () => {
      given(created('code-reviewer'), deleted('code-reviewer'))
        .when({ type: 'UpdateAgent', id: 'code-reviewer', fields: fields({ icon: 'x' }) })
        .thenThrows(AgentNotFoundError, /Agent code-reviewer does not exist/);
    });
  });

  describe('DeleteAgent', () => {
    it('deletes an active agent', () => {
      given(created('code-reviewer'), updated('code-reviewer', { icon: 'x' }))
        .when({ type: 'DeleteAgent', id: 'code-reviewer' })
        .then([deleted('code-reviewer')]);
    });

    it('refuses to delete an absent agent', () => {
      given()
        .when({ type: 'DeleteAgent', id: 'ghost' })
        .thenThrows(AgentNotFoundError, /Agent ghost does not exist/);
    });

    it('refuses to delete an agent twice', () => {
      given(created('code-reviewer'), deleted('code-reviewer'))
        .when({ type: 'DeleteAgent', id: 'code-reviewer' })
        .thenThrows(AgentNotFoundError, /does not exist/);
    });
  });

  describe('evolve', () => {
    const fold = (...events: AgentEvent[]) => events.reduce<AgentState>(evolveAgent, initialAgentState());

    it('starts absent', () => {
      expect(initialAgentState()).toEqual({ status: 'absent' });
      expect(fold()).toEqual({ status: 'absent' });
    });

    it('folds created, then updates merged over the fields in order', () => {
      expect(
        fold(created('code-reviewer'), updated('code-reviewer', { description: 'one', icon: 'a' }), updated('code-reviewer', { description: 'two' })),
      ).toEqual({ status: 'active', id: 'code-reviewer', fields: fields({ description: 'two', icon: 'a' }) });
    });

    it('folds a deletion, and a re-creation with the new fields only', () => {
      expect(fold(created('code-reviewer'), deleted('code-reviewer'))).toEqual({ status: 'deleted', id: 'code-reviewer' });
      const again = fields({ name: 'Again', mcp_servers: [] });
      expect(fold(created('code-reviewer'), updated('code-reviewer', { icon: 'x' }), deleted('code-reviewer'), created('code-reviewer', again))).toEqual({
        status: 'active',
        id: 'code-reviewer',
        fields: again,
      });
    });

    it('ignores updates and deletions that do not apply, and unknown event types', () => {
      expect(fold(updated('ghost', { icon: 'x' }), deleted('ghost'))).toEqual({ status: 'absent' });
      expect(fold(created('a'), deleted('a'), updated('a', { icon: 'x' }), deleted('a'))).toEqual({ status: 'deleted', id: 'a' });
      const stored = [created('a'), { type: 'agent.renamed', data: { id: 'a' } }];
      expect(fold(...stored.filter(isAgentEvent))).toEqual({ status: 'active', id: 'a', fields: fields() });
    });

    it('does not mutate the state it folds from', () => {
      const before = fold(created('a'));
      const snapshot = structuredClone(before);
      evolveAgent(before, updated('a', { description: 'changed' }));
      expect(before).toEqual(snapshot);
    });

    it('replays what decide emitted back to the state the command described', () => {
      let state = initialAgentState();
      const commands: Array<Extract<AgentCommand, { fields: AgentFields }>> = [
        { type: 'CreateAgent', id: 'a', fields: fields() },
        { type: 'UpdateAgent', id: 'a', fields: fields({ description: 'new', sub_agents: ['b'] }) },
        { type: 'UpdateAgent', id: 'a', fields: fields({ description: 'new', sub_agents: [] }) },
      ];
      for (const command of commands) {
        state = decideAgent(command, state).reduce<AgentState>(evolveAgent, state);
        expect(state).toEqual({ status: 'active', id: 'a', fields: command.fields });
      }
      state = decideAgent({ type: 'DeleteAgent', id: 'a' }, state).reduce<AgentState>(evolveAgent, state);
      expect(state).toEqual({ status: 'deleted', id: 'a' });
    });
  });
});
