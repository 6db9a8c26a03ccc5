// Writes the service's GraphQL schema to the file named (web/schema.graphql for the console's codegen).
import 'reflect-metadata';
import * as fs from 'node:fs';
import { printGraphqlSchema } from '../src/graphql-api/schema-printer';

const target = process.argv[2];
if (!target) {
  process.stderr.write('usage: emit-graphql-schema <file>\n');
  process.exit(2);
}
printGraphqlSchema().then(
  (sdl) => fs.writeFileSync(target, sdl),
  (error: unknown) => {
    process.stderr.write(`emit-graphql-schema: ${String(error)}\n`);
    process.exit(1);
  },
);
