import { agentCardOf } from './agent-card';

describe("a library agent's A2A card", () => {
  const lead = { id: 'lead', name: 'Lead', description: 'Leads the research', tools: ['bash', 'bash'] };
  const researcher = { id: 'researcher', name: 'Researcher', description: '', tools: [] };
  const card = agentCardOf(lead, [researcher], 'https://sb.example/a2a/lead', '1.2.3');

  it('offers both transports at the one URL, A2A 1.0', () => {
    expect(card.supportedInterfaces.map((i) => [i.protocolBinding, i.url, i.protocolVersion])).toEqual([
      ['JSONRPC', 'https://sb.example/a2a/lead', '1.0'],
      ['HTTP+JSON', 'https://sb.example/a2a/lead', '1.0'],
    ]);
    expect(card.provider).toEqual({ organization: 'Switchboard', url: 'https://sb.example' });
    expect(card.capabilities).toMatchObject({ streaming: true, pushNotifications: false });
  });

  it('has the agent and each team member as skills, the team named in its own', () => {
    expect(card.skills.map((s) => [s.id, s.name])).toEqual([
      ['lead', 'Lead'],
      ['lead/researcher', 'Researcher (through Lead)'],
    ]);
    expect(card.skills[0].description).toBe('Leads the research. It delegates to its team: Researcher.');
    expect(card.skills[0].tags).toEqual(['switchboard', 'team', 'bash']);
    expect(card.skills[1].description).toBe('Lead delegates to Researcher.');
  });

  it("requires the API's bearer credential", () => {
    expect(card.securitySchemes.bearer.scheme).toMatchObject({ $case: 'httpAuthSecurityScheme', value: { scheme: 'Bearer' } });
    expect(card.securityRequirements).toEqual([{ schemes: { bearer: { list: [] } } }]);
  });
});
