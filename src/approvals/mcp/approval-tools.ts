import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { z } from 'zod';
import { Contributes } from '../../common';
import { MCP_TOOLS, mcpTool, type McpTool, type McpToolSet } from '../../mcp-api';
import { type ApprovalView, toApprovalView } from '../approval-view';
import { approvalOf } from '../graphql/approvals.resolver';
import { DecideApproval, decideApprovalSchema } from '../commands/decide-approval/decide-approval.command';
import { APPROVAL_STATUSES, ListApprovals } from '../queries/list-approvals/list-approvals.query';

/** issue 43: the approvals inbox as MCP tools, for a person's client (deciding needs the approve permission). */
@Contributes(MCP_TOOLS)
export class ApprovalMcpTools implements McpToolSet {
  readonly tools: McpTool[];

  constructor(commandBus: CommandBus, queryBus: QueryBus) {
    this.tools = [
      mcpTool({
        name: 'list_approvals',
        title: 'List approvals',
        description: 'What agents wait for a person to approve (status pending, the default), newest first: the tool, its arguments, the agent and run.',
        input: {
          status: z.enum(APPROVAL_STATUSES).optional().describe('Default pending'),
          limit: z.number().int().min(1).max(100).optional().describe('Default 20'),
        },
        readOnly: true,
        call: async ({ status, limit }) => {
          const page = await queryBus.execute(new ListApprovals({ status: status ?? 'pending' }, limit ?? 20));
          const approvals = page.approvals.map(toApprovalView).map(structuredOf);
          const lines = approvals.map(
            (a) => `- ${a.id}: ${a.agentName ?? 'an agent'} asks for ${a.toolName ?? a.kind} ${JSON.stringify(a.arguments).slice(0, 300)} (${a.status})`,
          );
          return { text: lines.length > 0 ? lines.join('\n') : `No approval is ${status ?? 'pending'}.`, structured: { approvals } };
        },
      }),
      mcpTool({
        name: 'decide_approval',
        title: 'Decide an approval',
        description: "Approves or denies what an agent asked for (list_approvals). scope session approves that kind for the rest of the agent's session.",
        input: {
          approvalId: z.string().min(1).max(200),
          decision: decideApprovalSchema.shape.decision,
          scope: decideApprovalSchema.shape.scope,
          reason: decideApprovalSchema.shape.reason.describe('Read by the model when the request is denied'),
        },
        call: async ({ approvalId, decision, scope, reason }) => {
          const decided = await commandBus.execute(new DecideApproval(approvalId, decideApprovalSchema.parse({ decision, scope, reason }), 'api'));
          return { text: `Approval ${approvalId}: ${decided.decision ?? decided.status}`, structured: structuredOf(decided) };
        },
      }),
    ];
  }
}

/** An approval as the MCP answer shows it: as GraphQL does. */
function structuredOf(view: ApprovalView) {
  return { ...approvalOf(view) };
}
