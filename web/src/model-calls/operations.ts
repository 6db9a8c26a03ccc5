import { graphql } from '../gql';

// The model-call ledger as the chat and the run page read it: codegen types these from the service's schema.

// Whether the Copilot CLI hands its model calls to Switchboard; when not, there is no ledger to show, and the views say why.
export const ModelRouteQuery = graphql(`
  query ModelRoute {
    modelRoute {
      routed
      reason
    }
  }
`);

// What a list shows of each call: its figures, never its bodies (those come with ModelCallContent, when opened).
export const ModelCallFieldsFragment = graphql(`
  fragment ModelCallFields on ModelCall {
    callId
    status
    sessionId
    agentName
    subagentId
    runId
    lineagePath
    model
    provider
    interactionType
    messageCount
    toolCount
    httpStatus
    ttfbMs
    durationMs
    inputTokens
    outputTokens
    cachedInputTokens
    reasoningTokens
    finishReason
    cost
    currency
    error
    startedAt
    endedAt
  }
`);

export const ModelCallSpendFieldsFragment = graphql(`
  fragment ModelCallSpendFields on ModelCallSpend {
    calls
    inputTokens
    outputTokens
    cost
    currency
    unpricedCalls
  }
`);

export const SessionModelCallsQuery = graphql(`
  query SessionModelCalls($id: ID!, $after: String, $limit: Int) {
    session(id: $id) {
      sessionId
      modelCallSpend {
        ...ModelCallSpendFields
      }
      modelCalls(after: $after, limit: $limit) {
        calls {
          ...ModelCallFields
        }
        nextCursor
      }
    }
  }
`);

export const RunModelCallsQuery = graphql(`
  query RunModelCalls($id: ID!, $subtree: Boolean!, $after: String, $limit: Int) {
    run(id: $id) {
      runId
      modelCallSpend(subtree: $subtree) {
        ...ModelCallSpendFields
      }
      modelCalls(subtree: $subtree, after: $after, limit: $limit) {
        calls {
          ...ModelCallFields
        }
        nextCursor
      }
    }
  }
`);

// The run tree's cost column: each run's own spend and its subtree's, as the service sums them.
export const RunTreeSpendQuery = graphql(`
  query RunTreeSpend($id: ID!, $limit: Int!) {
    run(id: $id) {
      runId
      subtree(limit: $limit) {
        runId
        own: modelCallSpend {
          ...ModelCallSpendFields
        }
        all: modelCallSpend(subtree: true) {
          ...ModelCallSpendFields
        }
      }
    }
  }
`);

// One call's request and answer, asked only when a person opens it.
export const ModelCallContentQuery = graphql(`
  query ModelCallContent($id: ID!) {
    modelCall(id: $id) {
      callId
      status
      request
      answer
      requestTruncated
      answerTruncated
      requestBytes
      stream
    }
  }
`);
