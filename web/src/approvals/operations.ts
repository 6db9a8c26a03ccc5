import { graphql } from '../gql';

// Every GraphQL operation of the approvals inbox: codegen types them from the service's schema.

export const ApprovalsQuery = graphql(`
  query Approvals($filter: ApprovalFilterInput, $first: Int!, $after: String) {
    approvals(filter: $filter, first: $first, after: $after) {
      edges {
        node {
          id
          status
          kind
          toolName
          arguments
          sessionId
          childSessionId
          agentName
          runId
          rootRunId
          lineagePath
          requestedAt
          decidedAt
          decision
          decidedBy
          decidedByName
          scope
          reason
        }
      }
      pageInfo {
        endCursor
        hasNextPage
      }
    }
  }
`);

export const PendingApprovalIdsQuery = graphql(`
  query PendingApprovalIds($filter: ApprovalFilterInput!, $first: Int!) {
    approvals(filter: $filter, first: $first) {
      edges {
        node {
          id
          kind
          toolName
          arguments
          agentName
          runId
          lineagePath
        }
      }
      pageInfo {
        hasNextPage
      }
    }
  }
`);

export const DecideApprovalMutation = graphql(`
  mutation DecideApproval($id: ID!, $input: DecideApprovalInput!) {
    decideApproval(id: $id, input: $input) {
      id
      status
      decision
    }
  }
`);

export const ApprovalsChangedSubscription = graphql(`
  subscription ApprovalsChanged {
    approvalsChanged {
      id
      status
      sessionId
      rootRunId
    }
  }
`);
