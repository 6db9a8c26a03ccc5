import { Controller, Delete, Get, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Request, Response } from 'express';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { PRINCIPAL_PROPERTY, type Principal } from '../identity';
import { SwitchboardMcpServer } from './mcp-server';

const VERSION = serviceVersion();

/**
 * issue 43: `/mcp`, MCP over Streamable HTTP (the SDK's transport), stateless: each POST carries its
 * JSON-RPC message and gets its answer (a stream of progress notifications first, for a long call), and
 * no session is kept between requests, so any instance answers any request. The global guard has
 * authenticated the caller as for the API (`Authorization: Bearer <token or key>`); the acting-actor
 * interceptor runs the call as it, so what a tool starts records the caller.
 */
@ApiExcludeController()
@Controller('mcp')
export class McpController {
  constructor(private readonly mcp: SwitchboardMcpServer) {}

  @Post()
  async post(@Req() request: Request & { [PRINCIPAL_PROPERTY]?: Principal }, @Res() response: Response): Promise<void> {
    const principal = request[PRINCIPAL_PROPERTY];
    if (!principal) throw new Error('the guard let an MCP request through without a principal');
    const server = this.mcp.serverFor(principal, VERSION);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    response.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(request, response, request.body);
  }

  /** No server-initiated stream without a session: 405, as the transport's spec has it for a stateless server. */
  @Get()
  stream(@Res() response: Response): void {
    methodNotAllowed(response);
  }

  @Delete()
  end(@Res() response: Response): void {
    methodNotAllowed(response);
  }
}

function methodNotAllowed(response: Response): void {
  response
    .status(405)
    .set('Allow', 'POST')
    .json({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed: this MCP server is stateless; send each message with POST' }, id: null });
}

/** The service's version (package.json), as the server tells MCP clients. */
function serviceVersion(): string {
  try {
    const manifest = JSON.parse(readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8')) as { version?: unknown };
    return typeof manifest.version === 'string' ? manifest.version : 'unknown';
  } catch {
    return 'unknown';
  }
}
