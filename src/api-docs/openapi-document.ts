import type { INestApplication, Type } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { ModulesContainer } from '@nestjs/core';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { z, type ZodType } from 'zod';
import {
  SESSION_ID,
  uuidParameter,
  type DocumentedAnswer,
  documentedAnswersOf,
  type PathParameterExample,
  UNAUTHORIZED_MESSAGE,
  IS_PUBLIC,
  ZodValidationPipe,
} from '../common';
import { AccessPolicy, rolesAllowed, ROLES } from '../identity';

type Operation = OpenAPIObject['paths'][string]['get'] & object;
type JsonSchema = Record<string, unknown>;

const ERROR_SCHEMA = 'ErrorResponse';
/** A path parameter no controller gave an example for. */
const ANY_ID_PARAMETER = uuidParameter(SESSION_ID);

/** An operation's documented answer, with the examples of its path parameters (its own over its controller's). */
interface OperationAnswer {
  answer: DocumentedAnswer;
  pathParameters: Readonly<Record<string, PathParameterExample>>;
}

/**
 * The OpenAPI document, generated from the code: routes and summaries from the controllers'
 * decorators; request bodies and query parameters from the zod schemas their ZodValidationPipes
 * check (so the document cannot drift from the validation); the one error shape on every operation.
 */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const policy = app.get(AccessPolicy);
  const document = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('Switchboard')
      .setDescription(
        'Event-sourced orchestration of GitHub Copilot agent sessions and sub-agents. GraphQL (queries, mutations, ' +
          'graphql-ws subscriptions) is served at /graphql with the same bearer token.',
      )
      .addBearerAuth()
      .build(),
  );
  document.components ??= {};
  document.components.schemas ??= {};
  document.components.schemas[ERROR_SCHEMA] = errorSchema();
  const operations = operationsById(document);
  const controllers = controllersOf(app);
  const answers = answersById(controllers);
  for (const item of Object.values(document.paths)) {
    for (const method of ['get', 'put', 'post', 'delete', 'patch'] as const) {
      const operation = item[method];
      if (operation) describeAnswer(operation, answers.get(operation.operationId ?? ''));
    }
  }
  for (const controller of controllers) {
    for (const method of Object.getOwnPropertyNames(controller.prototype)) {
      const operation = operations.get(`${controller.name}_${method}`);
      if (!operation) continue;
      describeValidatedInputs(operation, controller, method);
      const example = answers.get(operation.operationId ?? '')?.answer.request;
      const body = operation.requestBody && 'content' in operation.requestBody ? operation.requestBody.content['application/json'] : undefined;
      if (body && example !== undefined) body.example = example;
      describeErrors(operation, isPublic(controller, method));
      describeRefusal(operation, `${controller.name}.${method}`, policy);
    }
  }
  return document;
}

/**
 * What each route answers, by operationId (`<Controller>_<method>`), from the @DocumentedAnswers each
 * controller carries (its context keeps them beside it): nothing here lists the contexts.
 */
function answersById(controllers: ReadonlyArray<Type<unknown>>): Map<string, OperationAnswer> {
  const byId = new Map<string, OperationAnswer>();
  for (const controller of controllers) {
    const documented = documentedAnswersOf(controller);
    for (const [method, answer] of Object.entries(documented?.answers ?? {})) {
      byId.set(`${controller.name}_${method}`, { answer, pathParameters: { ...documented?.pathParameters, ...answer.pathParameters } });
    }
  }
  return byId;
}

/**
 * The documented success answer (its zod schema as the body, a realistic example), in place of the
 * empty 200/201 Nest puts on every operation; path parameters get an id of the real shape.
 */
function describeAnswer(operation: Operation, documented: OperationAnswer | undefined): void {
  const answer = documented?.answer;
  const responses = operation.responses as Record<string, unknown>;
  if (answer) {
    for (const status of Object.keys(responses)) if (status.startsWith('2')) delete responses[status];
    const schema = answer.contentType
      ? { type: 'string' }
      : z.toJSONSchema(answer.schema, { io: 'output', unrepresentable: 'any', target: 'openapi-3.0' });
    responses[String(answer.status)] = {
      description: answer.description,
      content: { [answer.contentType ?? 'application/json']: { schema, example: answer.example } },
    };
  }
  for (const parameter of operation.parameters ?? []) {
    if (!('in' in parameter) || parameter.in !== 'path') continue;
    const { example, format } = documented?.pathParameters[parameter.name] ?? ANY_ID_PARAMETER;
    parameter.schema = { type: 'string', ...(format ? { format } : {}) };
    parameter.example = example;
  }
}

function errorSchema(): JsonSchema {
  return {
    type: 'object',
    required: ['statusCode', 'code', 'message'],
    properties: {
      statusCode: { type: 'integer', example: 400 },
      code: {
        type: 'string',
        description: 'Stable and machine-readable: invalid_input, unauthorized, not_found, expected_version_conflict, invalid_state, ...',
        example: 'invalid_input',
      },
      message: { type: 'string', description: 'What went wrong and what to do' },
      details: { type: 'object', additionalProperties: true, description: 'The offending fields or entities, when there are some' },
      problems: { type: 'array', items: { type: 'string' }, description: 'invalid_input: one entry per bad field' },
    },
  };
}

function operationsById(document: OpenAPIObject): Map<string, Operation> {
  const byId = new Map<string, Operation>();
  for (const item of Object.values(document.paths)) {
    for (const method of ['get', 'put', 'post', 'delete', 'patch'] as const) {
      const operation = item[method];
      if (operation?.operationId) byId.set(operation.operationId, operation);
    }
  }
  return byId;
}

function controllersOf(app: INestApplication): Array<Type<unknown>> {
  const controllers = new Set<Type<unknown>>();
  for (const module of app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) controllers.add(wrapper.metatype as Type<unknown>);
  }
  return [...controllers];
}

function isPublic(controller: Type<unknown>, method: string): boolean {
  const handler = (controller.prototype as Record<string, unknown>)[method] as object;
  return Reflect.getMetadata(IS_PUBLIC, handler) === true || Reflect.getMetadata(IS_PUBLIC, controller) === true;
}

function toSchema(schema: ZodType): JsonSchema {
  return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any', target: 'openapi-3.0' });
}

/** @Body(new ZodValidationPipe(schema)) -> requestBody; @Query(new ZodValidationPipe(schema)) -> query parameters. */
function describeValidatedInputs(operation: Operation, controller: Type<unknown>, method: string): void {
  const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, method) ?? {}) as Record<string, { pipes?: unknown[] }>;
  for (const [key, arg] of Object.entries(args)) {
    const type = Number(key.split(':')[0]) as RouteParamtypes; // keys are `${paramtype}:${index}`
    const pipe = arg.pipes?.find((p): p is ZodValidationPipe<unknown> => p instanceof ZodValidationPipe);
    if (!pipe) continue;
    const schema = toSchema(pipe.schema);
    if (type === RouteParamtypes.BODY) {
      operation.requestBody = { required: true, content: { 'application/json': { schema } } };
    } else if (type === RouteParamtypes.QUERY) {
      const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
      const required = new Set((schema.required as string[] | undefined) ?? []);
      operation.parameters ??= [];
      for (const [name, property] of Object.entries(properties)) {
        const existing = operation.parameters.find((p) => 'name' in p && p.name === name && p.in === 'query');
        if (existing && 'name' in existing) {
          existing.schema = property;
          continue;
        }
        operation.parameters.push({ name, in: 'query', required: required.has(name) && property.default === undefined, schema: property });
      }
    }
  }
}

/** The 403 of an operation some roles may not call, worded from the access policy (what it needs, who has it). */
function describeRefusal(operation: Operation, name: string, policy: AccessPolicy): void {
  const rule = policy.ruleOf(name);
  if (rule === undefined || rule === 'public') return;
  const refused = ROLES.find((role) => !rolesAllowed(rule).includes(role));
  if (refused === undefined) return;
  const verdict = policy.judge(name, { name: 'nightly-ci', role: refused });
  if (verdict.allowed) return;
  (operation.responses as Record<string, unknown>)['403'] = {
    description: `forbidden: needs the ${rule.join(' or ')} permission (roles: ${verdict.roles.join(', ')}); see docs/security.md`,
    content: {
      'application/json': {
        schema: { $ref: `#/components/schemas/${ERROR_SCHEMA}` },
        example: { statusCode: 403, code: 'forbidden', message: verdict.message, details: { needs: verdict.needs, roles: verdict.roles, role: refused } },
      },
    },
  };
}

function describeErrors(operation: Operation, open: boolean): void {
  const error = (statusCode: number, code: string, message: string, description: string) => ({
    description,
    content: { 'application/json': { schema: { $ref: `#/components/schemas/${ERROR_SCHEMA}` }, example: { statusCode, code, message } } },
  });
  operation.responses ??= {};
  const responses = operation.responses as Record<string, unknown>;
  responses['400'] ??= error(
    400,
    'invalid_input',
    'limit: Too big: expected number to be <=1000',
    'invalid_input: a parameter or the body does not match its schema (problems lists each field), has an unknown key, nests deeper than 64 levels, holds text that is not Unicode, or is not valid JSON',
  );
  if (!open) {
    responses['401'] ??= error(
      401,
      'unauthorized',
      UNAUTHORIZED_MESSAGE,
      'unauthorized: SWITCHBOARD_API_TOKEN is set and the Authorization: Bearer header is missing or wrong',
    );
  }
  if ((operation.parameters ?? []).some((p) => 'in' in p && p.in === 'path')) {
    responses['404'] ??= error(404, 'not_found', 'Session 0192f3a4-5b6c-7d8e-9f01-23456789abcd does not exist', 'not_found: no such entity');
  }
  if (operation.requestBody !== undefined || (operation.operationId ?? '').match(/_(update|delete|destroy|change|resume|stop)/i)) {
    responses['409'] ??= error(
      409,
      'invalid_state',
      'The session is interrupted; it takes no messages: resume it first',
      'expected_version_conflict or invalid_state: read it again and retry, or it is in the wrong state',
    );
  }
  if (operation.requestBody !== undefined) {
    responses['413'] ??= error(
      413,
      'payload_too_large',
      'The body is over 1 MB',
      'payload_too_large: the body is over 1 MB, or a field is larger than may be stored (details.field)',
    );
    responses['415'] ??= error(415, 'unsupported_media_type', 'Send the body as UTF-8 JSON', 'unsupported_media_type: the body is not UTF-8 JSON');
  }
  responses['422'] ??= error(
    422,
    'unknown_agent',
    'Agent code-reviewr does not exist; list the agents with GET /api/agents',
    'understood but refused (for example unknown_agent or invalid_sub_agents, with details)',
  );
  responses['500'] ??= error(500, 'internal_error', 'Internal error; see the service log', 'internal_error: see the service log');
}
