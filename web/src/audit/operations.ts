import { graphql } from '../gql';

// The audit page's GraphQL operation: codegen types it from the service's schema.

export const AuditLogQuery = graphql(`
  query AuditLog($filter: AuditFilterInput, $first: Int!, $after: String, $newestFirst: Boolean) {
    auditLog(filter: $filter, first: $first, after: $after, newestFirst: $newestFirst) {
      edges {
        cursor
        node {
          position
          streamId
          eventType
          actor
          actorKind
          actorId
          actorName
          correlationId
          causationId
          recordedAt
          sessionId
          runId
          agentId
          toolName
          decision
        }
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
`);

export const AuditEventQuery = graphql(`
  query AuditEvent($position: Int!) {
    auditEvent(position: $position) {
      globalPosition
      streamId
      type
      data
      metadata
      recordedAt
    }
  }
`);
