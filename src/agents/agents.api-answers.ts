import { z } from 'zod';
import { type ControllerAnswers, AT, LATER, iso } from '../common';
import { agentInputSchema } from './agent-definition';
import type { AgentsController } from './agents.controller';

const agentView = agentInputSchema.extend({
  id: z.string(),
  created_at: iso,
  updated_at: iso,
  version: z.number().int(),
  composable: z.boolean(),
  composable_reasons: z.array(z.string()),
  sub_agent_problems: z.array(z.object({ id: z.string(), reason: z.string() }).loose()),
  included_in: z.array(z.string()),
});
/** The agent a client sends (POST); the stored agent adds its version and what the service worked out. */
const agentInput = {
  id: 'code-reviewer',
  name: 'Code reviewer',
  description: 'Reviews a diff for bugs, security problems and missing tests',
  system_message: { mode: 'replace', content: 'You review code. Name the file and line of each problem.' },
  tools: { custom: [], builtin: ['view', 'grep'], excluded_builtin: [] },
  sub_agents: ['test-writer'],
};
/** PUT sends the whole agent but its id (the path's). */
const { id: _id, ...agentBody } = agentInput;
const agentExample = {
  ...agentInput,
  created_at: AT,
  updated_at: LATER,
  version: 2,
  composable: true,
  composable_reasons: [],
  sub_agent_problems: [],
  included_in: [],
};

const agentList = { schema: z.object({ agents: z.array(agentView) }), example: { agents: [agentExample] } };

/** What the agent library's routes answer. */
export const AGENTS_ANSWERS: ControllerAnswers<AgentsController> = {
  answers: {
    create: {
      status: 201,
      description: 'The agent as stored',
      schema: agentView,
      example: { ...agentExample, version: 1, created_at: AT, updated_at: AT },
      request: agentInput,
    },
    list: {
      status: 200,
      description: 'The library',
      ...agentList,
    },
    eligible: {
      status: 200,
      description: 'Agents that can be its sub-agents',
      ...agentList,
    },
    export: {
      status: 200,
      description: 'One file per agent',
      schema: z.object({ files: z.array(z.object({ name: z.string(), content: z.string() })) }),
      example: { files: [{ name: 'code-reviewer.json', content: '{\n  "id": "code-reviewer",\n  "name": "Code reviewer"\n}\n' }] },
    },
    import: {
      status: 200,
      description: 'What the import did, by agent id',
      schema: z.object({ created: z.array(z.string()), updated: z.array(z.string()), unchanged: z.array(z.string()) }),
      example: { created: ['test-writer'], updated: ['code-reviewer'], unchanged: [] },
      request: {
        files: [{ name: 'test-writer.json', content: '{"id":"test-writer","name":"Test writer","system_message":{"content":"You write unit tests."}}' }],
      },
    },
    get: { status: 200, description: 'The agent', schema: agentView, example: agentExample },
    update: {
      status: 200,
      description: 'The agent as stored (version + 1)',
      schema: agentView,
      example: { ...agentExample, version: 3 },
      request: {
        ...agentBody,
        system_message: { mode: 'replace', content: 'You review code. Name the file and line of each problem, and suggest a fix.' },
      },
    },
    delete: {
      status: 200,
      description: 'Deleted',
      schema: z.object({ id: z.string(), deleted: z.literal(true) }),
      example: { id: 'code-reviewer', deleted: true },
    },
  },
  pathParameters: { id: { example: 'code-reviewer' } },
};
