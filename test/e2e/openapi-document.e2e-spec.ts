import { type RunningApp, startTestApp } from '../fixtures/app-fixture';
import type { Json } from '../fixtures/json-http';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * The document /api/docs-json serves, walked operation by operation: every one says what it answers
 * (a success body with a schema and an example, and an example for each error), every path
 * parameter has an example of the real shape (Swagger's "Try it out" fills it in), every JSON body an example.
 */
describe('the OpenAPI document', () => {
  let running: RunningApp;
  let document: Json;
  beforeAll(async () => {
    running = await startTestApp();
    document = await (await fetch(`${running.baseUrl}/api/docs-json`)).json();
  });
  afterAll(() => running.close());

  const operations = (): Array<[string, Json]> =>
    Object.entries(document.paths as Record<string, Json>).flatMap(([path, item]) =>
      ['get', 'put', 'post', 'delete', 'patch'].filter((m) => item[m]).map((m): [string, Json] => [`${m.toUpperCase()} ${path}`, item[m]]),
    );

  it('covers every route (38 today)', () => {
    expect(operations().length).toBeGreaterThanOrEqual(38);
  });

  it("documents the optional traceparent header where a caller's trace starts the work (issue 28)", () => {
    const traced = operations()
      .filter(([, operation]) =>
        ((operation.parameters ?? []) as Json[]).some((p) => p.in === 'header' && p.name === 'traceparent' && p.required === false),
      )
      .map(([name]) => name)
      .sort();
    expect(traced).toEqual(['POST /api/runs', 'POST /api/runs/{id}/fork', 'POST /api/runs/{id}/replay', 'POST /api/sessions/{id}/messages']);
  });

  it('documents a success body with a schema and an example on every operation', () => {
    const missing = operations().flatMap(([name, operation]) => {
      const success = Object.entries(operation.responses as Record<string, Json>).filter(([status]) => status.startsWith('2'));
      if (success.length !== 1) return [`${name}: ${success.length} success responses`];
      const content = Object.values((success[0][1].content ?? {}) as Record<string, Json>);
      return content.length === 1 && content[0].schema && content[0].example !== undefined ? [] : [`${name}: no body schema or example`];
    });
    expect(missing).toEqual([]);
  });

  it('gives every error response an example in the one error shape', () => {
    const missing = operations().flatMap(([name, operation]) =>
      Object.entries(operation.responses as Record<string, Json>)
        .filter(([status]) => !status.startsWith('2'))
        .filter(([status, response]) => response.content?.['application/json']?.example?.statusCode !== Number(status))
        .map(([status]) => `${name} ${status}`),
    );
    expect(missing).toEqual([]);
  });

  it('gives path parameters real ids (a UUID for sessions, runs, approvals; a slug for agents) and JSON bodies an example', () => {
    const problems = operations().flatMap(([name, operation]) => [
      ...((operation.parameters ?? []) as Json[])
        .filter((p) => p.in === 'path')
        .filter((p) => typeof p.example !== 'string' || (p.name === 'id' && !name.includes('/api/agents') && !UUID.test(p.example)))
        .map((p) => `${name} {${p.name}}: ${p.example}`),
      ...(operation.requestBody && operation.requestBody.content['application/json'].example === undefined ? [`${name}: body without an example`] : []),
    ]);
    expect(problems).toEqual([]);
    const session = document.paths['/api/sessions/{id}'].get;
    expect(session.parameters.find((p: Json) => p.name === 'id')).toMatchObject({ schema: { format: 'uuid' }, example: expect.stringMatching(UUID) });
    expect(session.responses['200'].content['application/json'].schema.properties).toHaveProperty('sessionId');
  });
});
