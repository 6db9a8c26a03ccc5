import { Controller, Delete, Get, MethodNotAllowedException, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeEndpoint, ApiOperation, ApiTags } from '@nestjs/swagger';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Request, Response } from 'express';
import { actingAs, DocumentedAnswers, serviceVersion } from '../common';
import { actorOfPrincipal, PRINCIPAL_PROPERTY, type Principal } from '../identity';
import { MCP_ANSWERS } from './mcp-api.api-answers';
import { checkMcpRequest } from './mcp-request';
import { SwitchboardMcpServer } from './mcp-server';

const VERSION = serviceVersion();

/**
 * issue 43: `/mcp`, MCP over Streamable HTTP (the SDK's transport), stateless: each POST carries its
 * JSON-RPC message and gets its answer (a stream of progress notifications first, for a long call), and
 * no session is kept between requests, so any instance answers any request. The global guard has
 * authenticated the caller as for the API (`Authorization: Bearer <token or key>`); each call runs as it,
 * `via: mcp`, so what a tool starts records who asked and through what.
 */
@ApiTags('mcp')
@DocumentedAnswers(MCP_ANSWERS)
@Controller('mcp')
export class McpController {
  constructor(private readonly mcp: SwitchboardMcpServer) {}

  @Post()
  @ApiOperation({ summary: 'MCP over Streamable HTTP: one JSON-RPC message (initialize, tools/list, tools/call, resources/read...)' })
  async post(@Req() request: Request & { [PRINCIPAL_PROPERTY]?: Principal }, @Res() response: Response): Promise<void> {
    const principal = request[PRINCIPAL_PROPERTY];
    if (!principal) throw new Error('the guard let an MCP request through without a principal');
    checkMcpRequest(request.headers, request.body);
    const server = this.mcp.serverFor(principal, VERSION, isTaskCall(request.body));
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    response.on('close', () => {
      void transport.close();
      void server.close();
    });
    // As the caller, through MCP: what a tool records names the key (or person) and `via: mcp`.
    await actingAs(actorOfPrincipal(principal, 'mcp'), async () => {
      await server.connect(transport);
      await transport.handleRequest(request, response, request.body);
    });
  }

  /**
   * No server-initiated stream without a session: 405, as the transport's spec has it for a stateless server
   * (in the service's error shape; MCP clients read the status). Left out of the OpenAPI document: they answer nothing else.
   */
  @Get()
  @ApiExcludeEndpoint()
  stream(@Res() response: Response): void {
    methodNotAllowed(response);
  }

  @Delete()
  @ApiExcludeEndpoint()
  end(@Res() response: Response): void {
    methodNotAllowed(response);
  }
}

function methodNotAllowed(response: Response): never {
  response.set('Allow', 'POST');
  throw new MethodNotAllowedException({
    code: 'method_not_allowed',
    message: 'this MCP server is stateless: it has no stream to open and no session to end; send each message with POST',
  });
}

/** A tools/call that asks for an MCP task (`params.task`): the tool answers with its task instead of waiting. */
function isTaskCall(body: unknown): boolean {
  const message = body as { method?: unknown; params?: { task?: unknown } } | null;
  return message?.method === 'tools/call' && typeof message.params?.task === 'object' && message.params.task !== null;
}
