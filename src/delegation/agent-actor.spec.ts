import { agentActor } from './agent-actor';

describe('agentActor', () => {
  it('names the agent at the end of its lineage and keeps the lineage, root first', () => {
    expect(agentActor('sub-agent-r2', ['main', 'researcher', 'writer'])).toEqual({
      kind: 'agent',
      id: 'session:sub-agent-r2',
      name: 'writer',
      lineage: ['main', 'researcher', 'writer'],
    });
  });

  it('tells a CLI-native sub-agent from its session', () => {
    expect(agentActor('s1', ['main', 'reviewer'], 'reviewer')).toMatchObject({ id: 'session:s1/reviewer', name: 'reviewer' });
  });
});
