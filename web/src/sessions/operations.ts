import { graphql } from '../gql';

// Every GraphQL operation of the session list: codegen types them from the service's schema.

export const SessionListQuery = graphql(`
  query SessionList($limit: Int!) {
    sessions(limit: $limit) {
      sessionId
      status
      statusReason
      model
      agentId
      subAgents
      createdAt
      updatedAt
    }
    agents {
      id
      name
      icon
    }
  }
`);

export const ResumeSessionMutation = graphql(`
  mutation ResumeSession($sessionId: ID!) {
    resumeSession(sessionId: $sessionId) {
      sessionId
      status
    }
  }
`);

export const DestroySessionMutation = graphql(`
  mutation DestroySession($sessionId: ID!) {
    destroySession(sessionId: $sessionId) {
      sessionId
      status
    }
  }
`);
