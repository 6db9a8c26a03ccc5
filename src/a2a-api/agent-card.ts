import type { AgentCard, AgentSkill } from '@a2a-js/sdk';

/** A2A's protocol version this server speaks (the SDK's `A2A_PROTOCOL_VERSION`). */
export const A2A_VERSION = '1.0';

/** What the card says of a library agent and its team: their ids, names and descriptions. */
export interface CardAgent {
  id: string;
  name: string;
  description: string;
  /** The agent's custom and built-in tools, as skill tags. */
  tools: readonly string[];
}

/**
 * issue 43: a library agent as an A2A agent. Its skills are its own (running the agent, the whole team
 * under it) and one per team member it delegates to; both transports sit at one URL (JSON-RPC is POST on
 * it, HTTP+JSON under it); the security scheme is the API's own: a bearer token, the service token or a
 * named key with its role.
 */
export function agentCardOf(agent: CardAgent, team: readonly CardAgent[], endpoint: string, version: string, pushNotifications = false): AgentCard {
  const teamNote = team.length > 0 ? ` It delegates to its team: ${team.map((m) => m.name).join(', ')}.` : '';
  const own: AgentSkill = skill(agent.id, agent.name, `${sentence(agent.description) || `Runs ${agent.name}.`}${teamNote}`, [
    'switchboard',
    'team',
    ...agent.tools,
  ]);
  return {
    name: agent.name,
    description: agent.description || `${agent.name}, an agent of a Switchboard team`,
    supportedInterfaces: [
      { url: endpoint, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: A2A_VERSION },
      { url: endpoint, protocolBinding: 'HTTP+JSON', tenant: '', protocolVersion: A2A_VERSION },
    ],
    provider: { organization: 'Switchboard', url: new URL(endpoint).origin },
    version,
    capabilities: { streaming: true, pushNotifications, extensions: [], extendedAgentCard: false },
    securitySchemes: {
      bearer: {
        scheme: {
          $case: 'httpAuthSecurityScheme',
          value: {
            scheme: 'Bearer',
            bearerFormat: '',
            description: "The service's API token, or a named API key (POST /api/keys); the key's role decides what it may do",
          },
        },
      },
    },
    securityRequirements: [{ schemes: { bearer: { list: [] } } }],
    defaultInputModes: ['text/plain', 'application/json'],
    defaultOutputModes: ['text/plain'],
    skills: [
      own,
      ...team.map((m) =>
        skill(`${agent.id}/${m.id}`, `${m.name} (through ${agent.name})`, m.description || `${agent.name} delegates to ${m.name}.`, [
          'team-member',
          ...m.tools,
        ]),
      ),
    ],
    signatures: [],
  };
}

/** A description as a sentence, so the team note can follow it. */
function sentence(text: string): string {
  const trimmed = text.trim();
  return trimmed === '' || /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

function skill(id: string, name: string, description: string, tags: string[]): AgentSkill {
  return { id, name, description, tags: [...new Set(tags)].slice(0, 32), examples: [], inputModes: [], outputModes: [], securityRequirements: [] };
}
