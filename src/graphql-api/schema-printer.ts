import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { NestFactory } from '@nestjs/core';
import { GraphQLSchemaBuilderModule, GraphQLSchemaFactory, RESOLVER_TYPE_METADATA } from '@nestjs/graphql';
import { lexicographicSortSchema, printSchema } from 'graphql';

const SRC = join(__dirname, '..');
const RESOLVER_FILE = /\.resolver\.(ts|js)$/;

/** Every `*.resolver.ts` of src (each context's `graphql/` folder, the kernel's own), spec files aside. */
export function resolverFiles(dir = SRC): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return resolverFiles(path);
    return RESOLVER_FILE.test(entry.name) && !entry.name.includes('.spec.') ? [path] : [];
  });
}

/** A class marked `@Resolver()`. */
type ResolverClass = abstract new (...args: never[]) => unknown;

const isResolverClass = (value: unknown): value is ResolverClass => typeof value === 'function' && Reflect.hasMetadata(RESOLVER_TYPE_METADATA, value);

/**
 * Every resolver class of the schema, found where the contexts put them (`*.resolver.ts`): the classes
 * those files export that carry `@Resolver()`. The running app finds the same classes among its providers.
 */
export async function schemaResolvers(): Promise<ResolverClass[]> {
  const modules = await Promise.all(resolverFiles().map(async (file) => (await import(file)) as Record<string, unknown>));
  return modules.flatMap((exported) => Object.values(exported).filter(isResolverClass));
}

/**
 * The GraphQL schema as SDL, built from the resolver classes alone (no database, no CLI): the file the
 * console's types are generated from, so a schema change that breaks the console breaks its build.
 * Sorted like the served schema (sortSchema: true).
 */
export async function printGraphqlSchema(): Promise<string> {
  const app = await NestFactory.create(GraphQLSchemaBuilderModule, { logger: false });
  try {
    await app.init();
    const schema = await app.get(GraphQLSchemaFactory).create(await schemaResolvers());
    return printSchema(lexicographicSortSchema(schema)) + '\n';
  } finally {
    await app.close();
  }
}
