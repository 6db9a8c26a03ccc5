import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { and, desc, eq, lt, type SQL } from 'drizzle-orm';
import { InvalidInputError } from '../../../common';
import { ReadModelDatabase } from '../../../database';
import { type ApprovalPage, ListApprovals } from './list-approvals.query';

/** Opaque to callers: base64url of the asked position. */
export const encodeApprovalCursor = (position: number): string => Buffer.from(String(position)).toString('base64url');

export function decodeApprovalCursor(cursor: string): number {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  if (/^[1-9]\d{0,15}$/.test(text)) return Number(text);
  throw new InvalidInputError(`after: ${JSON.stringify(cursor)} is not a cursor this API gave out (pass the previous page's next_cursor)`);
}

@QueryHandler(ListApprovals)
export class ListApprovalsHandler implements IQueryHandler<ListApprovals, ApprovalPage> {
  constructor(private readonly db: ReadModelDatabase) {}

  async execute({ filter, first, after }: ListApprovals): Promise<ApprovalPage> {
    const cursor = after === undefined ? undefined : decodeApprovalCursor(after);
    const { approvals } = this.db.tables;
    const conditions: Array<SQL | undefined> = [
      filter.approvalId === undefined ? undefined : eq(approvals.approvalId, filter.approvalId),
      filter.status === undefined ? undefined : eq(approvals.status, filter.status),
      filter.sessionId === undefined ? undefined : eq(approvals.sessionId, filter.sessionId),
      filter.rootRunId === undefined ? undefined : eq(approvals.rootRunId, filter.rootRunId),
      filter.agentName === undefined ? undefined : eq(approvals.agentName, filter.agentName),
      cursor === undefined ? undefined : lt(approvals.askedPosition, cursor),
    ];
    const rows = await this.db.orm
      .select()
      .from(approvals)
      .where(and(...conditions))
      .orderBy(desc(approvals.askedPosition))
      .limit(first + 1);
    const page = rows.slice(0, first);
    const last = page[page.length - 1];
    return { approvals: page, hasNextPage: rows.length > first, endCursor: last ? encodeApprovalCursor(last.askedPosition) : null };
  }
}
