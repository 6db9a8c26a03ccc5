import { graphql } from '../gql';

// The schedule pages' GraphQL operations (issue 30: scheduled runs): codegen types them from the schema.

export const ScheduleFiringFields = graphql(`
  fragment ScheduleFiringFields on ScheduleFiring {
    id
    scheduleId
    dueAt
    firedAt
    trigger
    status
    runId
    runStatus
    outcome
    attempt
    retryAt
    missedCount
    reason {
      code
      message
    }
  }
`);

export const SchedulesQuery = graphql(`
  query Schedules($first: Int!, $after: String) {
    schedules(first: $first, after: $after) {
      nodes {
        id
        name
        agentId
        cron
        at
        timeZone
        enabled
        version
        nextFiringAt
        lastFiring {
          ...ScheduleFiringFields
        }
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
    agents {
      id
      name
    }
  }
`);

export const ScheduleQuery = graphql(`
  query Schedule($id: ID!, $firings: Int!) {
    schedule(id: $id) {
      id
      name
      agentId
      prompt
      model
      budget {
        maxTokens
        maxToolCalls
        maxRuns
        maxDurationMs
        maxCost
      }
      permissionPolicy {
        allowKinds
        askKinds
        askTools
      }
      workspace {
        repository
        ref
        merge
      }
      cron
      at
      timeZone
      endsAt
      enabled
      overlap
      catchUp
      version
      createdAt
      updatedAt
      nextFiringAt
      nextFirings
      firings(first: $firings) {
        nodes {
          ...ScheduleFiringFields
        }
        pageInfo {
          hasNextPage
          endCursor
        }
      }
    }
  }
`);

export const SchedulePreviewQuery = graphql(`
  query SchedulePreview($cron: String, $at: String, $timeZone: String!, $endsAt: String) {
    schedulePreview(cron: $cron, at: $at, timeZone: $timeZone, endsAt: $endsAt) {
      nextFirings
      problems
    }
  }
`);

export const ScheduleEditorChoicesQuery = graphql(`
  query ScheduleEditorChoices {
    agents {
      id
      name
      model
    }
    ...SessionOptions
    knownBuiltinTools
  }
`);

export const CreateScheduleMutation = graphql(`
  mutation CreateSchedule($input: ScheduleInput!) {
    createSchedule(input: $input) {
      id
      version
    }
  }
`);

export const UpdateScheduleMutation = graphql(`
  mutation UpdateSchedule($id: ID!, $expectedVersion: Int, $input: ScheduleChangesInput!) {
    updateSchedule(id: $id, expectedVersion: $expectedVersion, input: $input) {
      id
      version
    }
  }
`);

export const SetScheduleEnabledMutation = graphql(`
  mutation SetScheduleEnabled($id: ID!, $enabled: Boolean!, $expectedVersion: Int) {
    setScheduleEnabled(id: $id, enabled: $enabled, expectedVersion: $expectedVersion) {
      id
      enabled
      version
      nextFiringAt
    }
  }
`);

export const DeleteScheduleMutation = graphql(`
  mutation DeleteSchedule($id: ID!, $expectedVersion: Int) {
    deleteSchedule(id: $id, expectedVersion: $expectedVersion) {
      id
      deleted
    }
  }
`);

export const RunScheduleNowMutation = graphql(`
  mutation RunScheduleNow($id: ID!) {
    runScheduleNow(id: $id) {
      ...ScheduleFiringFields
    }
  }
`);

export const ScheduleFiringsSubscription = graphql(`
  subscription ScheduleFirings($scheduleId: ID) {
    scheduleFirings(scheduleId: $scheduleId) {
      ...ScheduleFiringFields
    }
  }
`);
