import { Body, Controller, Delete, Get, Headers, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { z } from 'zod';
import { InvalidInputError, expectedVersionOf, ZodValidationPipe, DocumentedAnswers } from '../common';
import { agentFieldsSchema, type AgentInput, agentInputSchema } from './agent-definition';
import { agentFileSchema } from './agent-files';
import { CreateAgent } from './commands/create-agent/create-agent.command';
import { DeleteAgent } from './commands/delete-agent/delete-agent.command';
import { ImportAgents } from './commands/import-agents/import-agents.command';
import { UpdateAgent } from './commands/update-agent/update-agent.command';
import { EligibleSubAgents } from './queries/eligible-sub-agents/eligible-sub-agents.query';
import { ExportAgents } from './queries/export-agents/export-agents.query';
import { GetAgent } from './queries/get-agent/get-agent.query';
import { ListAgents } from './queries/list-agents/list-agents.query';
import { AGENTS_ANSWERS } from './agents.api-answers';

const listSchema = z.object({ composable: z.enum(['true', 'false']).optional() });
const eligibleSchema = z.object({ exclude: z.string().max(64).optional() });
const importSchema = z
  .object({
    files: z.array(agentFileSchema.strict()).min(1).max(1000),
  })
  .strict();
// PUT takes the whole definition; the id in the body, when given, must be the one in the path. What GET
// adds (version, composable...) may come back unchanged from an editor and is ignored.
const putSchema = agentFieldsSchema.extend({
  id: z.string().optional(),
  created_at: z.string().optional(),
  updated_at: z.string().optional(),
  version: z.number().optional(),
  composable: z.boolean().optional(),
  composable_reasons: z.array(z.string()).optional(),
  sub_agent_problems: z.array(z.unknown()).optional(),
  included_in: z.array(z.string()).optional(),
});

@ApiTags('agents')
@DocumentedAnswers(AGENTS_ANSWERS)
@Controller('api/agents')
export class AgentsController {
  constructor(
    private readonly commandBus: CommandBus,
    private readonly queryBus: QueryBus,
  ) {}

  @Post()
  @ApiOperation({ summary: 'Create an agent (422 when its sub_agents are unknown or cannot be sub-agents)' })
  create(@Body(new ZodValidationPipe(agentInputSchema)) body: AgentInput) {
    return this.commandBus.execute(new CreateAgent(body));
  }

  @Get()
  @ApiOperation({ summary: 'The agent library, each with composable and its reasons; ?composable=true filters' })
  list(@Query(new ZodValidationPipe(listSchema)) query: z.infer<typeof listSchema>) {
    return this.queryBus.execute(new ListAgents(query.composable === undefined ? undefined : query.composable === 'true'));
  }

  @Get('eligible-sub-agents')
  @ApiOperation({ summary: 'Agents that can be sub-agents of ?exclude=<id>' })
  eligible(@Query(new ZodValidationPipe(eligibleSchema)) query: z.infer<typeof eligibleSchema>) {
    return this.queryBus.execute(new EligibleSubAgents(query.exclude));
  }

  @Get('export')
  @ApiOperation({ summary: 'Every agent as a <id>.json file in the agent JSON format' })
  export() {
    return this.queryBus.execute(new ExportAgents());
  }

  @Post('import')
  @HttpCode(200)
  @ApiOperation({ summary: 'Import agent files all together; a file that does not parse is named with its line, and nothing is imported' })
  import(@Body(new ZodValidationPipe(importSchema)) body: z.infer<typeof importSchema>) {
    return this.commandBus.execute(new ImportAgents(body.files));
  }

  @Get(':id')
  @ApiOperation({ summary: 'An agent with composable and the problems of its sub-agents' })
  get(@Param('id') id: string) {
    return this.queryBus.execute(new GetAgent(id));
  }

  @Put(':id')
  @ApiOperation({ summary: 'Replace an agent definition (If-Match: <version> to guard against lost updates)' })
  update(@Param('id') id: string, @Body(new ZodValidationPipe(putSchema)) body: z.infer<typeof putSchema>, @Headers('if-match') ifMatch?: string) {
    const {
      id: bodyId,
      created_at: _c,
      updated_at: _u,
      version: _v,
      composable: _k,
      composable_reasons: _r,
      sub_agent_problems: _p,
      included_in: _i,
      ...fields
    } = body;
    if (bodyId !== undefined && bodyId !== id) throw new InvalidInputError(`The body's id ${bodyId} differs from the path's ${id}; ids cannot be changed`);
    return this.commandBus.execute(new UpdateAgent(id, fields, expectedVersionOf(ifMatch, 'an agent')));
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Delete an agent (allowed while others use it; they show the problem)' })
  delete(@Param('id') id: string, @Headers('if-match') ifMatch?: string) {
    return this.commandBus.execute(new DeleteAgent(id, expectedVersionOf(ifMatch, 'an agent')));
  }
}
