import { graphql } from '../gql';

// Every GraphQL operation of the agent pages: codegen types them from the service's schema.

export const LibraryQuery = graphql(`
  query Library {
    agents {
      id
      name
      description
      icon
      model
      subAgents
      includedIn
      composable
      composableReasons
      version
      subAgentProblems {
        id
        reason
      }
    }
  }
`);

export const AgentLibraryChangedSubscription = graphql(`
  subscription AgentLibraryChanged {
    agentLibraryChanged {
      agentId
      change
      version
    }
  }
`);

export const AgentQuery = graphql(`
  query Agent($id: ID!) {
    agent(id: $id) {
      id
      name
      description
      icon
      model
      systemMessage {
        mode
        content
      }
      tools {
        custom
        builtin
        excludedBuiltin
      }
      mcpServers
      subAgents
      allowedAgents
      excludedAgents
      hooks {
        type
        url
        failure
      }
      ...AgentSessionDefaults
      remoteA2a
      includedIn
      composable
      composableReasons
      version
    }
  }
`);

export const EditorChoicesQuery = graphql(`
  query EditorChoices($exclude: String) {
    eligibleSubAgents(exclude: $exclude) {
      id
      name
      icon
      description
    }
    agents {
      ...AgentLabelFields
    }
    mcpServers {
      servers {
        name
        type
      }
      problem
    }
    hookTypes
    ...SessionOptions
  }
`);

/**
 * The CLI's built-in tools, for suggestions: asked apart from the editor's choices, because the first ask
 * starts the CLI (seconds) and the choices (which agents can be sub-agents) must not wait for it.
 */
export const BuiltinToolsQuery = graphql(`
  query BuiltinTools {
    knownBuiltinTools
  }
`);

export const DraftCheckQuery = graphql(`
  query DraftCheck($id: ID, $input: AgentFieldsInput!) {
    agentDraftCheck(id: $id, input: $input) {
      composable
      composableReasons
      subAgentProblems {
        id
        reason
      }
    }
  }
`);

export const CreateAgentMutation = graphql(`
  mutation CreateAgent($input: CreateAgentInput!) {
    createAgent(input: $input) {
      id
      version
    }
  }
`);

export const UpdateAgentMutation = graphql(`
  mutation UpdateAgent($id: ID!, $input: AgentFieldsInput!, $expectedVersion: Int) {
    updateAgent(id: $id, input: $input, expectedVersion: $expectedVersion) {
      id
      version
    }
  }
`);

export const DeleteAgentMutation = graphql(`
  mutation DeleteAgent($id: ID!, $expectedVersion: Int) {
    deleteAgent(id: $id, expectedVersion: $expectedVersion) {
      id
      deleted
    }
  }
`);

export const ImportAgentsMutation = graphql(`
  mutation ImportAgents($files: [AgentFileInput!]!) {
    importAgents(files: $files) {
      created
      updated
      unchanged
    }
  }
`);

export const AgentFilesQuery = graphql(`
  query AgentFiles {
    agentFiles {
      name
      content
    }
  }
`);

export const AgentNamesQuery = graphql(`
  query AgentNames {
    agents {
      id
      name
    }
  }
`);
