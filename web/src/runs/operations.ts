import { graphql } from '../gql';

// Every GraphQL operation of the runs list and the run page: codegen types them from the service's schema.

export const RunListQuery = graphql(`
  query RunList($filter: RunFilterInput, $first: Int!, $after: String) {
    runs(filter: $filter, first: $first, after: $after) {
      edges {
        cursor
        node {
          runId
          agentId
          prompt
          status
          background
          depth
          parentRunId
          rootRunId
          ownerThreadId
          startedAt
          endedAt
          startedBy {
            kind
            name
            via
          }
          scheduledBy {
            scheduleId
            schedule {
              name
            }
          }
          replayOf
          replayMode
          forkedFrom {
            runId
          }
          modelCallSpend(subtree: true) {
            ...ModelCallSpendFields
          }
          usage {
            own {
              totalTokens
              toolCalls
            }
            subtree {
              totalTokens
              runs
            }
          }
        }
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
    agents {
      ...AgentLabelFields
    }
  }
`);

export const RunHeaderQuery = graphql(`
  query RunHeader($id: ID!) {
    run(id: $id) {
      runId
      agentId
      status
      prompt
      output
      error
      stoppedBy
      policy
      background
      depth
      parentRunId
      rootRunId
      ownerThreadId
      epoch
      startedAt
      endedAt
      replayOf
      replayMode
      startedBy {
        kind
        name
        via
      }
      remote {
        a2a
        service
        taskId
        reportedTokens
        reportedCost
        reportedCurrency
      }
      scheduledBy {
        scheduleId
        schedule {
          name
        }
      }
      forkedFrom {
        runId
        modelCallId
      }
      replay {
        mode
        onDivergence
        allowSideEffects
        message
        requestedBy
        divergence
      }
      replays {
        runId
        status
        startedAt
        forkedFrom {
          modelCallId
        }
      }
      modelCallSpend(subtree: true) {
        calls
        cost
        unpricedCalls
      }
      pause {
        since
        by
        target
        runId
        sessionId
        reason
        held
      }
      budget {
        ...RunBudgetFields
      }
    }
  }
`);

// The root run of a tree: whose chat (or the API) started the tree the page shows a run of.
export const RunOwnerQuery = graphql(`
  query RunOwner($id: ID!) {
    run(id: $id) {
      runId
      agentId
      ownerThreadId
      scheduledBy {
        scheduleId
        schedule {
          name
        }
      }
    }
  }
`);

// The subtree's usage as the service sums it (the runs read model): the page never adds it up from events.
export const RunUsageQuery = graphql(`
  query RunUsage($id: ID!) {
    run(id: $id) {
      runId
      usage {
        subtree {
          runs
          totalTokens
          toolCalls
        }
      }
    }
  }
`);

export const StopRunMutation = graphql(`
  mutation StopRun($runId: ID!, $reason: String) {
    agentStop(runId: $runId, reason: $reason) {
      stoppedRuns
      run {
        runId
        status
      }
    }
  }
`);

export const SteerRunMutation = graphql(`
  mutation SteerRun($runId: ID!, $message: String!) {
    steerRun(runId: $runId, message: $message) {
      runId
      agentName
      status
    }
  }
`);

export const ResumeRunMutation = graphql(`
  mutation ResumeRun($runId: ID!) {
    resumeRun(runId: $runId) {
      runId
      status
      epoch
    }
  }
`);

export const ReplayRunMutation = graphql(`
  mutation ReplayRun($runId: ID!, $onDivergence: String) {
    replayRun(runId: $runId, onDivergence: $onDivergence) {
      runId
      status
    }
  }
`);

export const PauseRunMutation = graphql(`
  mutation PauseRun($runId: ID!, $reason: String) {
    pauseRun(runId: $runId, reason: $reason) {
      pause {
        since
        by
      }
    }
  }
`);

export const ForkRunMutation = graphql(`
  mutation ForkRun($runId: ID!, $fromModelCall: ID!, $message: String) {
    forkRun(runId: $runId, fromModelCall: $fromModelCall, message: $message) {
      runId
      status
    }
  }
`);

export const UnpauseRunMutation = graphql(`
  mutation UnpauseRun($runId: ID!) {
    unpauseRun(runId: $runId) {
      pausedMs
      released
    }
  }
`);

export const RunEventsSubscription = graphql(`
  subscription RunEvents($runId: ID!, $after: Int) {
    runEvents(runId: $runId, includeDescendants: true, after: $after) {
      globalPosition
      streamId
      streamPosition
      type
      recordedAt
      data
      eventId
    }
  }
`);
