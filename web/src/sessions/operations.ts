import { graphql } from '../gql';

// Every GraphQL operation of the session list: codegen types them from the service's schema.

export const SessionListQuery = graphql(`
  query SessionList($limit: Int!, $search: String, $includeRunSessions: Boolean!) {
    sessions(limit: $limit, search: $search, includeRunSessions: $includeRunSessions) {
      sessionId
      status
      statusReason
      model
      agentId
      subAgents
      title
      preview
      runId
      run {
        runId
        agentId
        prompt
      }
      createdAt
      updatedAt
    }
    agents {
      ...AgentLabelFields
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

// The chat: start a session as a library agent, follow its events, send, answer questions, change its team.

export const NewSessionQuery = graphql(`
  query NewSession {
    agents {
      ...AgentLabelFields
      description
      model
      subAgents
      subAgentProblems {
        id
        reason
      }
      mcpServers
      tools {
        builtin
        excludedBuiltin
      }
      ...AgentSessionDefaults
    }
    mcpServers {
      servers {
        name
        type
      }
      problem
    }
    knownBuiltinTools
    ...SessionOptions
  }
`);

// An agent's session defaults and the operator's switches: the new-session page and the agent editor show both.
export const AgentSessionDefaultsFragment = graphql(`
  fragment AgentSessionDefaults on Agent {
    delegation
    permissionPolicy {
      allowKinds
      askKinds
      askTools
    }
    budget {
      maxTokens
      maxToolCalls
      maxRuns
      maxDurationMs
      maxCost
    }
    workspace {
      repository
      ref
      merge
    }
  }
`);

export const SessionOptionsFragment = graphql(`
  fragment SessionOptions on Query {
    sessionOptions {
      permissionKinds {
        kind
        description
        allowed
        refusedReason
        enabledBy
        note
      }
      delegationTools
      workspaceRepositories
    }
  }
`);

export const EligibleSubAgentsQuery = graphql(`
  query EligibleSubAgents($exclude: String) {
    eligibleSubAgents(exclude: $exclude) {
      id
      name
      icon
      description
    }
  }
`);

export const CreateSessionMutation = graphql(`
  mutation CreateSession($input: CreateSessionInput!) {
    createSession(input: $input) {
      sessionId
      status
      model
    }
  }
`);

export const SendMessageMutation = graphql(`
  mutation SendMessage($sessionId: ID!, $prompt: String!) {
    sendMessage(sessionId: $sessionId, prompt: $prompt) {
      sessionId
      messageId
    }
  }
`);

export const ChatSessionQuery = graphql(`
  query ChatSession($id: ID!) {
    session(id: $id) {
      sessionId
      status
      statusReason
      model
      agentId
      subAgents
      config
      budget {
        ...RunBudgetFields
      }
    }
    agents {
      ...AgentLabelFields
      model
      subAgents
      subAgentProblems {
        id
        reason
      }
    }
  }
`);

// The session's status as the service folds it (the sessions read model, written with each event):
// asked again as the live events arrive, so the page never re-derives it from event types.
export const SessionStatusQuery = graphql(`
  query SessionStatus($id: ID!) {
    session(id: $id) {
      sessionId
      status
      statusReason
      lastPosition
    }
  }
`);

export const SessionHistoryQuery = graphql(`
  query SessionHistory($sessionId: ID!, $before: Int, $last: Int!) {
    sessionHistory(sessionId: $sessionId, before: $before, last: $last) {
      hasEarlier
      version
      events {
        type
        streamPosition
        recordedAt
        data
      }
    }
  }
`);

export const SessionEventsSubscription = graphql(`
  subscription SessionEvents($sessionId: ID!, $after: Int!) {
    sessionEvents(sessionId: $sessionId, after: $after) {
      type
      streamPosition
      recordedAt
      data
    }
  }
`);

export const PendingUserInputQuery = graphql(`
  query PendingUserInput($sessionId: ID!) {
    pendingUserInput(sessionId: $sessionId) {
      requestId
      question
      choices
      allowFreeform
      agentName
      askedAt
    }
  }
`);

export const AnswerUserInputMutation = graphql(`
  mutation AnswerUserInput($sessionId: ID!, $requestId: ID!, $answer: String!, $wasFreeform: Boolean) {
    answerUserInput(sessionId: $sessionId, requestId: $requestId, answer: $answer, wasFreeform: $wasFreeform) {
      requestId
      answered
    }
  }
`);

export const ChangeSessionSubAgentsMutation = graphql(`
  mutation ChangeSessionSubAgents($sessionId: ID!, $subAgents: [String!]!) {
    changeSessionSubAgents(sessionId: $sessionId, subAgents: $subAgents) {
      sessionId
      subAgents
    }
  }
`);

export const AbortSessionTurnMutation = graphql(`
  mutation AbortSessionTurn($sessionId: ID!) {
    abortSessionTurn(sessionId: $sessionId) {
      sessionId
      status
    }
  }
`);

export const SteerSessionMutation = graphql(`
  mutation SteerSession($sessionId: ID!, $message: String!, $subagentId: ID) {
    steerSession(sessionId: $sessionId, message: $message, subagentId: $subagentId) {
      sessionId
      target
      subagentId
      agentName
      status
    }
  }
`);

// A delegation's run card: what the session's stream does not carry (tokens), asked of the run itself.
export const RunCardQuery = graphql(`
  query RunCard($id: ID!) {
    run(id: $id) {
      runId
      status
      usage {
        subtree {
          totalTokens
        }
      }
      modelCallSpend(subtree: true) {
        ...ModelCallSpendFields
      }
    }
  }
`);

export const SessionPauseQuery = graphql(`
  query SessionPause($id: ID!) {
    session(id: $id) {
      sessionId
      pause {
        since
        by
        target
        runId
        held
      }
    }
  }
`);

export const PauseSessionMutation = graphql(`
  mutation PauseSession($sessionId: ID!, $reason: String) {
    pauseSession(sessionId: $sessionId, reason: $reason) {
      pause {
        since
      }
    }
  }
`);

export const UnpauseSessionMutation = graphql(`
  mutation UnpauseSession($sessionId: ID!) {
    unpauseSession(sessionId: $sessionId) {
      released
    }
  }
`);

export const SessionTitleQuery = graphql(`
  query SessionTitle($id: ID!) {
    session(id: $id) {
      sessionId
      title
    }
  }
`);
