import { graphql } from '../gql';

// Selections more than one feature asks for (codegen appends a fragment to each document that spreads it).

/** A budget over a run tree or a session: its limits and what has been used of them (the run page, the chat). */
export const RunBudgetFields = graphql(`
  fragment RunBudgetFields on RunBudgetModel {
    limits {
      maxTokens
      maxToolCalls
      maxRuns
      maxDurationMs
      maxCost
    }
    used {
      tokens
      toolCalls
      runs
      durationMs
      cost
    }
  }
`);

/** How the console names an agent wherever it lists one: its name and icon, by id. */
export const AgentLabelFields = graphql(`
  fragment AgentLabelFields on Agent {
    id
    name
    icon
  }
`);
