import { NestFactory } from '@nestjs/core';
import { GraphQLSchemaBuilderModule, GraphQLSchemaFactory } from '@nestjs/graphql';
import { lexicographicSortSchema, printSchema } from 'graphql';
import { GRAPHQL_RESOLVERS } from './graphql-api.module';

/**
 * The GraphQL schema as SDL, built from the resolver classes alone (no database, no CLI): the file the
 * console's types are generated from, so a schema change that breaks the console breaks its build.
 * Sorted like the served schema (sortSchema: true).
 */
export async function printGraphqlSchema(): Promise<string> {
  const app = await NestFactory.create(GraphQLSchemaBuilderModule, { logger: false });
  try {
    await app.init();
    const schema = await app.get(GraphQLSchemaFactory).create(GRAPHQL_RESOLVERS);
    return printSchema(lexicographicSortSchema(schema)) + '\n';
  } finally {
    await app.close();
  }
}
