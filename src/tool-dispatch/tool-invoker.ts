import { Injectable } from '@nestjs/common';
import type { ToolResult } from '../copilot-cli';
import { BuiltinToolCatalog, type ToolInvocation, type ToolSpec } from '../sessions';
import { WebhookToolHandler } from './webhook-tool-handler';

/** Runs a session tool by its handler kind and always returns a ToolResult (failures included). */
@Injectable()
export class ToolInvoker {
  constructor(
    private readonly webhooks: WebhookToolHandler,
    private readonly builtins: BuiltinToolCatalog,
  ) {}

  async invoke(tool: ToolSpec, invocation: ToolInvocation): Promise<ToolResult> {
    if (tool.handler.type === 'webhook') return this.webhooks.call(tool.handler.url, invocation);
    const builtin = this.builtins.get(tool.handler.name);
    if (!builtin) return failure(`Tool ${tool.name} failed: built-in handler ${tool.handler.name} is not available.`);
    try {
      return toToolResult(await builtin(invocation));
    } catch (error) {
      return failure(`Tool ${tool.name} failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}

function toToolResult(value: unknown): ToolResult {
  if (value && typeof value === 'object' && typeof (value as ToolResult).textResultForLlm === 'string') return value as ToolResult;
  return { textResultForLlm: typeof value === 'string' ? value : JSON.stringify(value), resultType: 'success' };
}

function failure(text: string): ToolResult {
  return { textResultForLlm: text, resultType: 'failure', error: text };
}
