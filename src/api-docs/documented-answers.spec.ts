import type { Type } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA, ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { ZodType } from 'zod';
import { type DocumentedAnswer, documentedAnswersOf, ZodValidationPipe } from '../common';

/** Where @ApiExcludeController() and @ApiExcludeEndpoint() mark what the document leaves out (@nestjs/swagger's DECORATORS, not exported). */
const API_EXCLUDE_CONTROLLER = 'swagger/apiExcludeController';
const API_EXCLUDE_ENDPOINT = 'swagger/apiExcludeEndpoint';

/** Every controller of src/, found the way a new context adds one: a `*.controller.ts` file anywhere. */
function controllers(dir: string): Array<Type<unknown>> {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return controllers(path);
    if (!entry.name.endsWith('.controller.ts')) return [];
    // Synchronously, so that it.each below has the answers when jest collects the tests.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const exported = Object.values(require(path) as Record<string, unknown>);
    return exported.filter((value): value is Type<unknown> => typeof value === 'function' && Reflect.getMetadata(PATH_METADATA, value) !== undefined);
  });
}

const documented = controllers(join(__dirname, '..')).filter((controller) => !Reflect.getMetadata(API_EXCLUDE_CONTROLLER, controller)?.[0]);
/** The documented routes of a controller: each method Nest routes, less those left out of the document (`/mcp`'s 405s). */
const routesOf = (controller: Type<unknown>) =>
  Object.getOwnPropertyNames(controller.prototype).filter((method) => {
    const handler = (controller.prototype as Record<string, object>)[method];
    return (
      Reflect.getMetadata(METHOD_METADATA, handler) !== undefined &&
      !(Reflect.getMetadata(API_EXCLUDE_ENDPOINT, handler) as { disable?: boolean } | undefined)?.disable
    );
  });
const answers: Array<[string, DocumentedAnswer]> = documented.flatMap((controller) =>
  Object.entries(documentedAnswersOf(controller)?.answers ?? {}).map(([method, answer]): [string, DocumentedAnswer] => [
    `${controller.name}_${method}`,
    answer,
  ]),
);

/** The body schema a route validates with: its @Body(new ZodValidationPipe(schema)). */
function bodySchemaOf(operationId: string): ZodType | undefined {
  const [name, method] = operationId.split('_');
  const controller = documented.find((c) => c.name === name);
  const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller ?? Object, method) ?? {}) as Record<string, { pipes?: unknown[] }>;
  for (const [key, arg] of Object.entries(args)) {
    if (Number(key.split(':')[0]) !== Number(RouteParamtypes.BODY)) continue;
    const pipe = arg.pipes?.find((p): p is ZodValidationPipe<unknown> => p instanceof ZodValidationPipe);
    if (pipe) return pipe.schema;
  }
  return undefined;
}

/** The OpenAPI examples are what the service would send and take: each parses with its schema. */
describe('the documented answers', () => {
  it('are found on the controllers of every context (the document builder reads the same)', () => {
    expect(documented.length).toBeGreaterThanOrEqual(16);
    expect(answers.length).toBeGreaterThanOrEqual(66);
  });

  it('cover every route of every documented controller', () => {
    const missing = documented.flatMap((controller) =>
      routesOf(controller)
        .filter((method) => documentedAnswersOf(controller)?.answers[method] === undefined)
        .map((method) => `${controller.name}_${method}`),
    );
    expect(missing).toEqual([]);
  });

  it.each(answers)('%s: the answer example matches its schema', (_operation, answer) => {
    expect(answer.schema.safeParse(answer.example).error?.issues ?? []).toEqual([]);
  });

  const validated = answers.filter(([operation]) => bodySchemaOf(operation) !== undefined);
  it('gives a request example to every route that validates a body', () => {
    expect(validated.filter(([, answer]) => answer.request === undefined).map(([operation]) => operation)).toEqual([]);
    expect(validated.length).toBeGreaterThanOrEqual(13);
  });

  it.each(validated)('%s: the request example is a body the route takes', (operation, answer) => {
    expect(bodySchemaOf(operation)?.safeParse(answer.request).error?.issues ?? []).toEqual([]);
  });
});
