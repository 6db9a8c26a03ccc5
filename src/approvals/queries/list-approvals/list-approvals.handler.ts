import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { and, desc, lt, type SQL } from 'drizzle-orm';
import { InvalidInputError } from '../../../common';
import { equalsWhenGiven, ReadModelDatabase, whenGiven } from '../../../database';
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
      equalsWhenGiven(approvals.approvalId, filter.approvalId),
      equalsWhenGiven(approvals.status, filter.status),
      equalsWhenGiven(approvals.sessionId, filter.sessionId),
      equalsWhenGiven(approvals.rootRunId, filter.rootRunId),
      equalsWhenGiven(approvals.agentName, filter.agentName),
      whenGiven(cursor, (position) => lt(approvals.askedPosition, position)),
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
