import { graphql } from '../gql';

// The Keys page's GraphQL operations (issue 27: named API keys, an admin's): codegen types them from the schema.

export const ApiKeysQuery = graphql(`
  query ApiKeys {
    apiKeys {
      id
      name
      role
      prefix
      createdAt
      createdBy
      lastUsedAt
      expiresAt
      revokedAt
      revokedBy
    }
  }
`);

export const CreateApiKeyMutation = graphql(`
  mutation CreateApiKey($input: CreateApiKeyInputModel!) {
    createApiKey(input: $input) {
      key
      apiKey {
        id
        name
        role
        prefix
      }
    }
  }
`);

export const RevokeApiKeyMutation = graphql(`
  mutation RevokeApiKey($id: ID!) {
    revokeApiKey(id: $id) {
      id
      revokedAt
    }
  }
`);
