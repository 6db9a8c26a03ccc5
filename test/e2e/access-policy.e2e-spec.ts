import { RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { DiscoveryService } from '@nestjs/core';
import {
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLObjectType,
  type GraphQLSchema,
  buildSchema,
  getNamedType,
  isEnumType,
  isInputObjectType,
  isLeafType,
  isListType,
  isNonNullType,
} from 'graphql';
import type { Client } from 'graphql-ws';
import { type AccessRule, type AccessRules, accessTableOf, rolesAllowed } from '../../src/identity/access-policy';
import { accessRuleSetsInFiles } from '../../src/identity/access-rule-files';
import { AccessPolicy } from '../../src/identity/app-access-policy';
import { ROLES, type Role } from '../../src/identity/principal';
import { printGraphqlSchema } from '../../src/graphql-api/schema-printer';
import { IS_PUBLIC } from '../../src/common/auth/public.decorator';
import { type RunningApp, startTestApp } from '../fixtures/app-fixture';
import { graphqlHttp, GraphqlSubscription, graphqlWs } from '../fixtures/graphql-client';
import { type Json, jsonHttp } from '../fixtures/json-http';
import { SwitchboardMcpServer } from '../../src/mcp-api/mcp-server';
import { A2A_OPERATIONS } from '../../src/a2a-api/a2a-operations';

const TOKEN = 'access-policy-e2e-token-0123456789';
const DUMMY_ID = '00000000-0000-4000-8000-000000000000';

/** Who tries each operation: a named key of each role, and nobody (no credential while a token is set). */
type Caller = Role | 'anonymous';
const CALLERS: readonly Caller[] = [...ROLES, 'anonymous'];

interface RestOperation {
  name: string;
  method: string;
  path: string;
  body?: unknown;
}

interface Outcome {
  status: number;
  code?: string;
  message?: string;
}

/**
 * issue 27: the role matrix. Every REST operation of the OpenAPI document (SSE streams included), every
 * route the app serves outside it, and every Query, Mutation and Subscription field of the schema, tried
 * with a key of each role and anonymously, against the policy table. Requests carry dummy ids and
 * bodies: a 400, 404, 409 or 422 means the call got past the guard. A new route or field without a rule
 * fails here (and is refused to everyone at run time).
 */
describe('the access policy, operation by operation', () => {
  let running: RunningApp;
  const keys = new Map<Role, string>();
  let document: Json;
  let schema: GraphQLSchema;
  const clients: Client[] = [];

  beforeAll(async () => {
    running = await startTestApp({ apiToken: TOKEN });
    const operator = jsonHttp(() => running.baseUrl, { authorization: `Bearer ${TOKEN}` });
    for (const role of ROLES) {
      const created = await operator('POST', '/api/keys', { name: `policy-${role}`, role });
      keys.set(role, created.body.key);
    }
    document = await (await fetch(`${running.baseUrl}/api/docs-json`, { headers: { authorization: `Bearer ${TOKEN}` } })).json();
    schema = buildSchema(await printGraphqlSchema());
  });
  afterAll(async () => {
    await Promise.all(clients.map(async (client) => client.dispose()));
    await running?.close();
  });

  const authorization = (caller: Caller): Record<string, string> => (caller === 'anonymous' ? {} : { authorization: `Bearer ${keys.get(caller)}` });

  /** Every route the app serves, as Nest registered it: `<Controller>.<method>` with its verb and path. */
  function servedRoutes(): RestOperation[] {
    const discovery = running.app.get(DiscoveryService);
    return discovery.getControllers().flatMap((wrapper) => {
      const controller = wrapper.metatype as (new (...args: never[]) => unknown) | undefined;
      if (!controller) return [];
      const prefix = String(Reflect.getMetadata(PATH_METADATA, controller) ?? '');
      return Object.getOwnPropertyNames(controller.prototype).flatMap((method) => {
        const handler: unknown = controller.prototype[method];
        if (typeof handler !== 'function' || Reflect.getMetadata(METHOD_METADATA, handler) === undefined) return [];
        const verb = RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod];
        const path = `/${[prefix, String(Reflect.getMetadata(PATH_METADATA, handler) ?? '')].filter((p) => p && p !== '/').join('/')}`;
        // A route of any method (@All) is tried with GET; a wildcard (`*path`) with a path under it.
        const tried = { method: verb === 'ALL' ? 'GET' : verb, path: path.replace(/:\w+/g, DUMMY_ID).replace(/\*\w+/g, 'tasks') };
        return [{ name: `${controller.name}.${method}`, ...tried }];
      });
    });
  }

  /** The OpenAPI document's operations, by operationId (`<Controller>_<method>`), with dummy ids and a body no route accepts. */
  function documentedOperations(): RestOperation[] {
    return Object.entries(document.paths as Record<string, Json>).flatMap(([path, item]) =>
      ['get', 'put', 'post', 'delete', 'patch']
        .filter((method) => item[method])
        .map((method) => ({
          name: String(item[method].operationId).replace('_', '.'),
          method: method.toUpperCase(),
          path: path.replace(/\{\w+\}/g, DUMMY_ID),
          // A JSON array is never a valid body here: the route's input check refuses it, past the guard.
          body: item[method].requestBody ? [] : undefined,
        })),
    );
  }

  function restOperations(): RestOperation[] {
    const documented = documentedOperations();
    const named = new Set(documented.map((o) => o.name));
    return [...documented, ...servedRoutes().filter((route) => !named.has(route.name))];
  }

  async function callRest(operation: RestOperation, caller: Caller): Promise<Outcome> {
    const abort = new AbortController();
    const response = await fetch(`${running.baseUrl}${operation.path}`, {
      method: operation.method,
      redirect: 'manual',
      signal: abort.signal,
      headers: {
        ...authorization(caller),
        ...(operation.method === 'POST' || operation.body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      body: operation.body === undefined ? undefined : JSON.stringify(operation.body),
    });
    // An SSE stream or a download that was let through: its status is the answer, the rest is not needed.
    if (!(response.headers.get('content-type') ?? '').includes('application/json')) {
      abort.abort();
      return { status: response.status };
    }
    const body = (await response.json()) as { code?: string; message?: string } | null;
    return { status: response.status, code: body?.code, message: body?.message };
  }

  const rootFields = (): Array<[string, GraphQLField<unknown, unknown>]> =>
    [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()]
      .filter((type): type is GraphQLObjectType => type !== null && type !== undefined)
      .flatMap((type) => Object.values(type.getFields()).map((field): [string, GraphQLField<unknown, unknown>] => [`${type.name}.${field.name}`, field]));

  /** A value of the type that passes the schema's validation, so the operation reaches the guard and the resolver. */
  function dummyLiteral(type: GraphQLInputType): string {
    if (isNonNullType(type)) return dummyLiteral(type.ofType);
    if (isListType(type)) return '[]';
    if (isEnumType(type)) return type.getValues()[0].name;
    if (isInputObjectType(type)) {
      const required = Object.values(type.getFields()).filter((field) => isNonNullType(field.type) && field.defaultValue === undefined);
      return `{ ${required.map((field) => `${field.name}: ${dummyLiteral(field.type)}`).join(', ')} }`;
    }
    const named = getNamedType(type).name;
    if (named === 'Int' || named === 'Float') return '1';
    if (named === 'Boolean') return 'false';
    if (named === 'JSON') return '{}';
    if (named === 'Timestamp') return '"2030-01-01T00:00:00Z"';
    return JSON.stringify(DUMMY_ID);
  }

  /** Arguments that still reach the guard, but that a resolver refuses where it would otherwise act (start a session, say). */
  const ARGUMENT_OVERRIDES: Record<string, string> = {
    'Mutation.createSession': 'input: { agentId: "policy-probe-unknown-agent" }',
    // Out of range: the resolver answers invalid_input right after the guard let it through.
    'Subscription.runEvents': `runId: "${DUMMY_ID}", after: -1`,
    'Subscription.sessionEvents': `sessionId: "${DUMMY_ID}", after: -1`,
  };

  function operationOf(name: string, field: GraphQLField<unknown, unknown>): string {
    const [type] = name.split('.');
    const required = field.args.filter((arg: GraphQLArgument) => isNonNullType(arg.type) && arg.defaultValue === undefined);
    const args = ARGUMENT_OVERRIDES[name] ?? required.map((arg) => `${arg.name}: ${dummyLiteral(arg.type)}`).join(', ');
    const selection = isLeafType(getNamedType(field.type)) ? '' : ' { __typename }';
    return `${type.toLowerCase()} { ${field.name}${args ? `(${args})` : ''}${selection} }`;
  }

  /** What each caller may do under the table; the expected refusal otherwise. */
  function expectOutcome(name: string, caller: Caller, outcome: Outcome): string | undefined {
    const rule: AccessRule | undefined = accessRuleOf(name);
    if (rule === undefined) return `${name}: no access rule`;
    const verdict = `${name} as ${caller}: ${outcome.status} ${outcome.code ?? ''} ${outcome.message ?? ''}`.trim();
    if (rule === 'public') return outcome.status === 401 || outcome.status === 403 ? verdict : undefined;
    if (caller === 'anonymous') return outcome.status === 401 ? undefined : verdict;
    if (rolesAllowed(rule).includes(caller)) return outcome.status === 401 || outcome.status === 403 ? verdict : undefined;
    const refused =
      outcome.status === 403 && outcome.code === 'forbidden' && (outcome.message ?? '').includes(`needs the ${rule.join(' or ')} permission`);
    return refused ? undefined : verdict;
  }

  /** The running app's table: every context's rules, gathered through discovery. */
  const appTable = (): AccessRules => running.app.get(AccessPolicy).rules();
  const accessRuleOf = (operation: string): AccessRule | undefined => running.app.get(AccessPolicy).ruleOf(operation);

  it("gathers the same table as the contexts' rule files (the one docs/security.md shows)", async () => {
    expect(appTable()).toEqual(accessTableOf(await accessRuleSetsInFiles()));
    expect(accessRuleOf('Mutation.decideApproval')).toEqual(['approve']);
  });

  it('has a rule for every route the app serves and every root field of the schema, and none for what does not exist', () => {
    const ACCESS_POLICY = appTable();
    const mcp = running.app.get(SwitchboardMcpServer).operations();
    expect(mcp.length).toBeGreaterThanOrEqual(8);
    // A2A's operations are checked by its controller once it knows which one a request is (a2a-operations.ts).
    const operations = new Set([...restOperations().map((o) => o.name), ...rootFields().map(([name]) => name), ...mcp, ...A2A_OPERATIONS]);
    expect([...operations].filter((name) => accessRuleOf(name) === undefined)).toEqual([]);
    expect(Object.keys(ACCESS_POLICY).filter((name) => !operations.has(name))).toEqual([]);
    // The document is where new routes show up first: it must be part of what is tried.
    expect(documentedOperations().length).toBeGreaterThanOrEqual(38);
    expect(rootFields().length).toBeGreaterThanOrEqual(40);
  });

  it('marks public exactly the routes that are @Public() (health probes, the sign-in flow)', () => {
    const discovery = running.app.get(DiscoveryService);
    const decorated = discovery.getControllers().flatMap((wrapper) => {
      const controller = wrapper.metatype as (new (...args: never[]) => unknown) | undefined;
      if (!controller) return [];
      return Object.getOwnPropertyNames(controller.prototype)
        .filter((method) => method !== 'constructor' && Reflect.getMetadata(METHOD_METADATA, controller.prototype[method]) !== undefined)
        .filter((method) => [Reflect.getMetadata(IS_PUBLIC, controller.prototype[method]), Reflect.getMetadata(IS_PUBLIC, controller)].includes(true))
        .map((method) => `${controller.name}.${method}`);
    });
    const marked = Object.entries(appTable()).flatMap(([name, rule]) => (rule === 'public' ? [name] : []));
    expect(decorated.sort()).toEqual(marked.sort());
  });

  it('lets each role call the REST and SSE operations its permissions cover, refuses the rest with a 403 naming the permission, and anonymous with a 401', async () => {
    const operations = restOperations();
    const problems: string[] = [];
    for (const caller of CALLERS) {
      const outcomes = await Promise.all(operations.map(async (operation) => [operation, await callRest(operation, caller)] as const));
      for (const [operation, outcome] of outcomes) {
        const problem = expectOutcome(operation.name, caller, outcome);
        if (problem) problems.push(`${operation.method} ${operation.path} ${problem}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('answers a refusal with the documented 403 shape', async () => {
    const viewer = jsonHttp(() => running.baseUrl, authorization('viewer'));
    expect(await viewer('POST', `/api/runs/${DUMMY_ID}/stop`, {})).toEqual({
      status: 403,
      body: {
        statusCode: 403,
        code: 'forbidden',
        message: 'RunsController.stop needs the operate permission (roles: operator, admin); policy-viewer has the viewer role',
        details: { needs: ['operate'], roles: ['operator', 'admin'], role: 'viewer' },
      },
    });
    // Operator and approver are siblings: each is refused the other's permission.
    const operator = jsonHttp(() => running.baseUrl, authorization('operator'));
    expect((await operator('POST', `/api/approvals/${DUMMY_ID}`, { decision: 'approve' })).body).toMatchObject({
      code: 'forbidden',
      details: { needs: ['approve'], roles: ['approver', 'admin'], role: 'operator' },
    });
    const approver = jsonHttp(() => running.baseUrl, authorization('approver'));
    expect((await approver('POST', `/api/approvals/${DUMMY_ID}`, { decision: 'approve' })).status).toBe(404);
    expect((await approver('POST', `/api/runs/${DUMMY_ID}/stop`, {})).status).toBe(403);

    // The OpenAPI document says it too, on every operation some role may not call.
    expect(document.paths['/api/runs/{id}/stop'].post.responses['403'].content['application/json'].example).toEqual({
      statusCode: 403,
      code: 'forbidden',
      message: 'RunsController.stop needs the operate permission (roles: operator, admin); nightly-ci has the viewer role',
      details: { needs: ['operate'], roles: ['operator', 'admin'], role: 'viewer' },
    });
    const undocumented = Object.entries(document.paths as Record<string, Json>).flatMap(([path, item]) =>
      ['get', 'put', 'post', 'delete', 'patch']
        .filter((method) => item[method])
        .filter((method) => {
          const rule = accessRuleOf(String(item[method].operationId).replace('_', '.'));
          const refusable = rule !== undefined && rule !== 'public' && rolesAllowed(rule).length < ROLES.length;
          return refusable !== (item[method].responses['403'] !== undefined);
        })
        .map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(undocumented).toEqual([]);
  });

  it('does the same for every Query and Mutation over HTTP, with a FORBIDDEN error carrying status 403', async () => {
    const problems: string[] = [];
    const fields = rootFields().filter(([name]) => !name.startsWith('Subscription.'));
    for (const caller of CALLERS) {
      const gql = graphqlHttp(() => running.baseUrl, caller === 'anonymous' ? undefined : keys.get(caller));
      const outcomes = await Promise.all(fields.map(async ([name, field]) => [name, await gql(operationOf(name, field))] as const));
      for (const [name, response] of outcomes) {
        const error = response.body.errors?.[0];
        if (error?.extensions?.code === 'GRAPHQL_VALIDATION_FAILED' || error?.extensions?.code === 'BAD_USER_INPUT') {
          problems.push(`${name}: the probe did not pass validation (${error.message})`);
          continue;
        }
        const status = response.status !== 200 ? response.status : (error?.extensions?.statusCode ?? 200);
        // GraphQL over HTTP answers 200 once the operation ran; the error carries REST's status and details.
        if (error?.extensions?.code === 'forbidden') {
          expect({ name, status: response.status, extensions: error.extensions }).toEqual({
            name,
            status: 200,
            extensions: { code: 'forbidden', statusCode: 403, details: { needs: expect.any(Array), roles: expect.any(Array), role: caller } },
          });
        }
        const problem = expectOutcome(name, caller, { status, code: error?.extensions?.code, message: error?.message });
        if (problem) problems.push(problem);
      }
    }
    expect(problems).toEqual([]);
  });

  it('enforces the table over graphql-ws too: every root field, subscriptions included, and anonymous is refused at connection_init', async () => {
    const problems: string[] = [];
    for (const caller of CALLERS) {
      const client = graphqlWs(running.baseUrl, caller === 'anonymous' ? undefined : keys.get(caller));
      clients.push(client);
      const outcomes = await Promise.all(
        rootFields().map(async ([name, field]) => {
          const operation = new GraphqlSubscription(client, operationOf(name, field)).start();
          const rule = accessRuleOf(name);
          const letThrough = caller !== 'anonymous' && rule !== undefined && rolesAllowed(rule).includes(caller);
          // A refusal is awaited for as long as it takes. A subscription the guard lets through either ends with
          // its resolver's own error (the overrides above) or stays open: after a quiet half second it counts
          // as let through (a refusal arriving later would make this pass wrongly, never fail).
          const settled = operation.waitForEnd().catch(() => undefined);
          await (letThrough ? Promise.race([settled, new Promise((resolve) => setTimeout(resolve, 500))]) : settled);
          operation.stop();
          return [name, operation] as const;
        }),
      );
      for (const [name, operation] of outcomes) {
        const error = operation.errors[0] as { closeCode?: number; message?: string; extensions?: { code?: string; statusCode?: number } } | undefined;
        const status = error?.closeCode === 4403 ? 401 : (error?.extensions?.statusCode ?? 200);
        const problem = expectOutcome(name, caller, { status, code: error?.extensions?.code, message: error?.message });
        if (problem) problems.push(`over graphql-ws ${problem}`);
      }
    }
    expect(problems).toEqual([]);
  });
});
