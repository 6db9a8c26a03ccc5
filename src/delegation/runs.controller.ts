import { Body, Controller, Get, Headers, HttpCode, Param, Post, Query, UseInterceptors } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { z } from 'zod';
import {
  utcTimestampParam,
  JsonNamingInterceptor,
  ZodValidationPipe,
  CLIENT_HEADER,
  personDecisionSource,
  ApiTraceparent,
  TRACEPARENT_HEADER,
  parseTraceparent,
  DocumentedAnswers,
} from '../common';
import { StartRun } from './commands/start-run/start-run.command';
import { StopRun } from './commands/stop-run/stop-run.command';
import { SteerRun } from './commands/steer-run/steer-run.command';
import { steerRunSchema } from '../sessions';
import { ForkRun } from './commands/fork-run/fork-run.command';
import { ReplayRun } from './commands/replay-run/replay-run.command';
import { GetRun } from './queries/get-run/get-run.query';
import { GetRunTree } from './queries/get-run-tree/get-run-tree.query';
import { GetRunOutput } from './queries/get-run-output/get-run-output.query';
import { ListRuns } from '../run-lineage';
import { PauseHolds } from '../pauses';
import { RUN_STATUSES } from './run.events';
import { toRunView } from './run-view';
import { API_CALLER, type RunCaller } from './run-caller';
import {
  forkRunSchema as forkSchema,
  replayRunSchema as replaySchema,
  resumeRunSchema as resumeSchema,
  startRunInput,
  startRunSchema as startSchema,
  stopRunSchema as stopSchema,
} from './run-requests';
import { RUNS_ANSWERS } from './runs.api-answers';

const listSchema = z.object({
  status: z.enum(RUN_STATUSES as [string, ...string[]]).optional(),
  agentId: z.string().min(1).max(64).optional(),
  rootRunId: z.string().min(1).max(64).optional(),
  startedFrom: utcTimestampParam.optional(),
  startedTo: utcTimestampParam.optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
  /** `nextCursor` of the previous page. */
  after: z.string().min(1).max(200).optional(),
});

/** The API as caller, with the caller's span when a `traceparent` came (issue 28). */
function apiCaller(traceparent: string | undefined): RunCaller {
  const caller = parseTraceparent(traceparent);
  return caller ? { kind: 'api', traceparent: caller } : API_CALLER;
}

/** spec: sub-agent-delegation over REST; the API acts as an operator (it may stop or resume any run). */
@ApiTags('runs')
@DocumentedAnswers(RUNS_ANSWERS)
@Controller('api/runs')
// Run views are the tool results' snake_case inside; the API answers them in camelCase.
// A fork's agent overrides are keyed by agent name and a divergence quotes requests: both keep their keys.
@UseInterceptors(
  new JsonNamingInterceptor({
    legacyInput: { topLevel: true, nested: ['policy', 'budget'] },
    camelCaseResponse: true,
    opaque: ['agent_overrides', 'divergence'],
  }),
)
export class RunsController {
  constructor(
    private readonly commandBus: CommandBus,
    private readonly queryBus: QueryBus,
    private readonly pauses: PauseHolds,
  ) {}

  @Post()
  @ApiOperation({ summary: 'agent_run: start a run of an agent (under parentRunId when given); 403 policy_denied, 422 unknown_agent' })
  @ApiTraceparent("a root run (run.started's trace; a run under parentRunId nests under its parent run instead)")
  start(@Body(new ZodValidationPipe(startSchema)) body: z.infer<typeof startSchema>, @Headers(TRACEPARENT_HEADER) traceparent?: string) {
    return this.commandBus.execute(new StartRun(startRunInput(body), apiCaller(traceparent)));
  }

  @Get()
  @ApiOperation({ summary: 'Runs, newest first, a page at a time (after=nextCursor); filters: status, agentId, rootRunId, startedFrom/To' })
  async list(@Query(new ZodValidationPipe(listSchema)) query: z.infer<typeof listSchema>) {
    const page = await this.queryBus.execute(
      new ListRuns(
        { status: query.status, agentId: query.agentId, rootRunId: query.rootRunId, startedFrom: query.startedFrom, startedTo: query.startedTo },
        query.limit,
        query.after,
      ),
    );
    const pauses = await this.pauses.pausesOverRuns(page.runs.map((row) => row.runId));
    const now = Date.now();
    return { runs: page.runs.map((row) => toRunView(row, now, undefined, pauses.get(row.runId))), nextCursor: page.hasNextPage ? page.endCursor : null };
  }

  @Get(':id')
  @ApiOperation({ summary: 'A run: status, lineage, policy, output, own usage' })
  get(@Param('id') id: string) {
    return this.queryBus.execute(new GetRun(id));
  }

  @Get(':id/output')
  @ApiOperation({ summary: "agent_output: the run's status and, once completed, its output" })
  output(@Param('id') id: string) {
    return this.queryBus.execute(new GetRunOutput(id, API_CALLER));
  }

  @Get(':id/tree')
  @ApiOperation({ summary: 'The run, its descendants and their CLI-native sub-agents, with own and subtree usage' })
  tree(@Param('id') id: string) {
    return this.queryBus.execute(new GetRunTree(id));
  }

  @Post(':id/stop')
  @HttpCode(200)
  @ApiOperation({ summary: 'agent_stop: stop the run and every running descendant (409 when it is not running)' })
  stop(@Param('id') id: string, @Body(new ZodValidationPipe(stopSchema)) body: z.infer<typeof stopSchema>) {
    return this.commandBus.execute(new StopRun(id, API_CALLER, body.reason));
  }

  @Post(':id/steer')
  @HttpCode(202)
  @ApiOperation({
    summary: "Steer a running run: the run's agent gets the message in its next model request (409 when the run or its turn is not running)",
  })
  steer(
    @Param('id') id: string,
    @Body(new ZodValidationPipe(steerRunSchema)) body: z.infer<typeof steerRunSchema>,
    @Headers(CLIENT_HEADER) client?: string,
  ) {
    return this.commandBus.execute(new SteerRun(id, body.message, personDecisionSource(client)));
  }

  @Post(':id/resume')
  @HttpCode(200)
  @ApiOperation({ summary: 'agent_run with runId: resume an interrupted or stopped run (409 otherwise)' })
  resume(@Param('id') id: string, @Body(new ZodValidationPipe(resumeSchema)) body: z.infer<typeof resumeSchema>) {
    return this.commandBus.execute(new StartRun({ runId: id, prompt: body.prompt, background: body.background }, API_CALLER));
  }

  @Post(':id/replay')
  @ApiOperation({
    summary:
      'issue 26: replay an ended run: a new root run (replayOf) whose model calls and webhook tool calls are answered from the record; 409 while it runs, 422 not_replayable',
  })
  @ApiTraceparent("the replay's root run")
  replay(
    @Param('id') id: string,
    @Body(new ZodValidationPipe(replaySchema)) body: z.infer<typeof replaySchema>,
    @Headers(CLIENT_HEADER) client: string | undefined,
    @Headers(TRACEPARENT_HEADER) traceparent?: string,
  ) {
    return this.commandBus.execute(new ReplayRun(id, body, personDecisionSource(client), parseTraceparent(traceparent)));
  }

  @Post(':id/fork')
  @ApiOperation({
    summary:
      'issue 26: fork an ended run at one of its model calls: the calls before it answered from the record, it and every later call live (with message / agentOverrides); 404 unknown call, 422 not a finished call of its tree',
  })
  @ApiTraceparent("the fork's root run")
  fork(
    @Param('id') id: string,
    @Body(new ZodValidationPipe(forkSchema)) body: z.infer<typeof forkSchema>,
    @Headers(CLIENT_HEADER) client: string | undefined,
    @Headers(TRACEPARENT_HEADER) traceparent?: string,
  ) {
    return this.commandBus.execute(new ForkRun(id, body, personDecisionSource(client), parseTraceparent(traceparent)));
  }
}
