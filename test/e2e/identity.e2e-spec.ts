import type { Client } from 'graphql-ws';
import { type RunningApp, startTestApp } from '../fixtures/app-fixture';
import { graphqlHttp, GraphqlSubscription, graphqlWs } from '../fixtures/graphql-client';
import { jsonHttp } from '../fixtures/json-http';
import { type PostgresServer, startPostgresServer } from '../fixtures/postgres-server';
import { makeTempDir } from '../fixtures/temp-dir';
import { waitUntil } from '../fixtures/wait-until';
import { WatchedSession } from '../fixtures/watched-session';
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { collectUntilExit, type Finished, REPO_ROOT } from '../fixtures/service-process';

const TOKEN = 'identity-e2e-token-0123456789';

/** How late an ended credential's streams may close (issue 39: within a second), with room for a busy machine's scheduling. */
const CLOSES_WITHIN_MS = 1_000;

/**
 * A session watched with `key` by SSE and graphql-ws, both past their first live event: what a key's
 * end must close (issue 39).
 */
async function watchedWith(running: RunningApp, key: string, sessionId: string, watchOn: RunningApp = running) {
  const session = await WatchedSession.create(running.app, sessionId);
  const sse = await session.sse(watchOn.baseUrl, { authorization: `Bearer ${key}` });
  expect(sse.status).toBe(200);
  const subscription = session.subscription(watchOn.baseUrl, { token: key });
  await subscription.waitFor((v) => v.length === 1, 'the replayed session.created');
  await session.tick();
  await sse.waitFor((e) => e.event === 'cli.test.tick', 'the first live event over SSE');
  await subscription.waitFor((v) => v.some((e) => e.sessionEvents.type === 'cli.test.tick'), 'the first live event over graphql-ws');
  return { session, sse, subscription };
}

/** `npm run keys:create-admin` as the operator runs it on the service's host, against the running app's database. */
function createAdminKeyOnTheHost(running: RunningApp, args: string[]): Promise<Finished> {
  const child = spawn(process.execPath, [path.join(REPO_ROOT, 'bin', 'maintenance.js'), 'keys:create-admin', ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, SWITCHBOARD_DB: running.config.database.file },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return collectUntilExit(child, 50_000);
}

/** Both streams ended within CLOSES_WITHIN_MS of `since`, saying why; an event appended afterwards reaches neither. */
async function expectClosed(watched: Awaited<ReturnType<typeof watchedWith>>, since: number, code: string, says: string) {
  const { session, sse, subscription } = watched;
  await Promise.all([sse.waitForEnd(CLOSES_WITHIN_MS + 2_000), subscription.waitForEnd(CLOSES_WITHIN_MS + 2_000)]);
  expect(Date.now() - since).toBeLessThan(CLOSES_WITHIN_MS);
  // The closing event keeps the last event's id: a client resuming with Last-Event-ID misses nothing.
  expect(sse.events.at(-1)).toEqual({ event: 'closed', id: sse.events.at(-2)?.id, data: { code, message: expect.stringContaining(says) } });
  expect(subscription.errors).toEqual([{ closeCode: 4401, reason: expect.stringContaining(says) }]);
  const [sseEvents, wsValues] = [sse.events.length, subscription.values.length];
  await session.tick();
  expect([sse.events.length, subscription.values.length]).toEqual([sseEvents, wsValues]);
  await session.dispose();
}

/** issue 27: who the caller is, over REST (GET /api/me), GraphQL over HTTP and graphql-ws, on the real app. */
describe('identity: the principal every transport sees', () => {
  const clients: Client[] = [];
  afterAll(async () => Promise.all(clients.map(async (c) => c.dispose())));

  /** `{ me { ... } }` over a graphql-ws connection, answered once. */
  async function meOverWebSocket(running: RunningApp, token?: string) {
    const client = graphqlWs(running.baseUrl, token);
    clients.push(client);
    const query = new GraphqlSubscription(client, '{ me { kind id name role via may } }').start();
    await query.waitForEnd();
    return query;
  }

  describe('with SWITCHBOARD_API_TOKEN set', () => {
    let running: RunningApp;
    beforeAll(async () => {
      running = await startTestApp({ apiToken: TOKEN });
    });
    afterAll(async () => running.close());

    it('answers GET /api/me for the token as the operator with the admin role, and 401 without it', async () => {
      const operator = await jsonHttp(() => running.baseUrl, { authorization: `Bearer ${TOKEN}` })('GET', '/api/me');
      expect(operator).toEqual({
        status: 200,
        body: { kind: 'operator', id: 'operator', name: 'operator', role: 'admin', via: 'bearer', may: ['read', 'operate', 'approve', 'administer'] },
      });

      for (const headers of [{}, { authorization: 'Bearer wrong-token-wrong-token' }] as Array<Record<string, string>>) {
        const refused = await jsonHttp(() => running.baseUrl, headers)('GET', '/api/me');
        expect(refused.status).toBe(401);
        expect(refused.body).toMatchObject({ code: 'unauthorized', message: expect.stringContaining('Authorization: Bearer') });
      }
    });

    it('answers the GraphQL me query over HTTP and graphql-ws with the same principal', async () => {
      const http = await graphqlHttp(() => running.baseUrl, TOKEN)('{ me { kind id name role via may } }');
      expect(http.body).toEqual({
        data: {
          me: { kind: 'operator', id: 'operator', name: 'operator', role: 'admin', via: 'bearer', may: ['read', 'operate', 'approve', 'administer'] },
        },
      });

      const ws = await meOverWebSocket(running, TOKEN);
      expect(ws.values).toEqual([
        { me: { kind: 'operator', id: 'operator', name: 'operator', role: 'admin', via: 'bearer', may: ['read', 'operate', 'approve', 'administer'] } },
      ]);

      const refused = await meOverWebSocket(running);
      expect(refused.errors).toEqual([{ closeCode: 4403, reason: 'Forbidden' }]);
    });
  });

  describe('with nothing configured, on loopback (the one-person start)', () => {
    let running: RunningApp;
    beforeAll(async () => {
      running = await startTestApp({ apiToken: undefined });
    });
    afterAll(async () => running.close());

    it('stays open and calls everyone the local admin, on REST, GraphQL over HTTP and graphql-ws', async () => {
      const local = { kind: 'local', id: 'local', name: 'local admin', role: 'admin', via: 'none', may: ['read', 'operate', 'approve', 'administer'] };
      expect(await jsonHttp(() => running.baseUrl)('GET', '/api/me')).toEqual({ status: 200, body: local });
      // A bearer nobody configured changes nothing, as before.
      expect(await jsonHttp(() => running.baseUrl, { authorization: 'Bearer anything' })('GET', '/api/me')).toEqual({ status: 200, body: local });
      expect((await graphqlHttp(() => running.baseUrl)('{ me { kind id name role via may } }')).body).toEqual({ data: { me: local } });
      expect((await meOverWebSocket(running)).values).toEqual([{ me: local }]);
    });
  });

  describe('named API keys', () => {
    let running: RunningApp;
    const operator = jsonHttp(() => running.baseUrl, { authorization: `Bearer ${TOKEN}` });
    const withKey = (key: string) => jsonHttp(() => running.baseUrl, { authorization: `Bearer ${key}` });
    beforeAll(async () => {
      running = await startTestApp({ apiToken: TOKEN });
    });
    afterAll(async () => running.close());

    it('creates a key shown once, lists it by prefix only, lets it act with its role and records its last use', async () => {
      const created = await operator('POST', '/api/keys', { name: 'nightly-ci', role: 'operator' });
      expect(created.status).toBe(201);
      const { key, apiKey } = created.body;
      expect(key).toMatch(/^sbk_[A-Za-z0-9_-]{43}$/);
      expect(apiKey).toMatchObject({
        name: 'nightly-ci',
        role: 'operator',
        prefix: key.slice(0, 12),
        createdBy: 'operator',
        revokedAt: null,
        expiresAt: null,
      });

      const listed = await operator('GET', '/api/keys');
      expect(listed.body.keys).toEqual([expect.objectContaining({ id: apiKey.id, prefix: key.slice(0, 12) })]);
      expect(JSON.stringify(listed.body)).not.toContain(key);
      expect(Object.keys(listed.body.keys[0])).not.toContain('secretSha256');

      expect(await withKey(key)('GET', '/api/me')).toEqual({
        status: 200,
        body: { kind: 'key', id: apiKey.id, name: 'nightly-ci', role: 'operator', via: 'bearer', may: ['read', 'operate'] },
      });
      await waitUntil(async () => (await operator('GET', '/api/keys')).body.keys[0].lastUsedAt !== null, 'the last use to be recorded');
    });

    it('refuses a revoked key from the next request on, and an unknown or expired key, each with a 401 saying which', async () => {
      const { key, apiKey } = (await operator('POST', '/api/keys', { name: 'to-revoke', role: 'viewer' })).body;
      expect((await withKey(key)('GET', '/api/me')).status).toBe(200);
      const revoked = await operator('DELETE', `/api/keys/${apiKey.id}`);
      expect(revoked).toMatchObject({ status: 200, body: { id: apiKey.id, revokedBy: 'operator', revokedAt: expect.any(String) } });
      const refused = await withKey(key)('GET', '/api/me');
      expect(refused).toMatchObject({ status: 401, body: { code: 'unauthorized', message: expect.stringContaining('was revoked at') } });
      expect(await operator('DELETE', `/api/keys/${apiKey.id}`)).toMatchObject({ status: 409, body: { code: 'invalid_state' } });
      expect(await operator('DELETE', '/api/keys/no-such-key')).toMatchObject({ status: 404, body: { code: 'not_found' } });

      const unknown = await withKey(`sbk_${'x'.repeat(43)}`)('GET', '/api/me');
      expect(unknown).toMatchObject({ status: 401, body: { message: expect.stringContaining('Unknown API key') } });

      const soon = new Date(Date.now() + 1500).toISOString();
      const expiring = (await operator('POST', '/api/keys', { name: 'short-lived', role: 'viewer', expiresAt: soon })).body;
      expect((await withKey(expiring.key)('GET', '/api/me')).status).toBe(200);
      await waitUntil(async () => (await withKey(expiring.key)('GET', '/api/me')).status === 401, 'the key to expire');
      expect((await withKey(expiring.key)('GET', '/api/me')).body.message).toContain('expired at');

      const past = await operator('POST', '/api/keys', { name: 'late', role: 'viewer', expiresAt: '2020-01-01T00:00:00Z' });
      expect(past).toMatchObject({ status: 400, body: { message: expect.stringContaining('in the past') } });
      const badRole = await operator('POST', '/api/keys', { name: 'x', role: 'root' });
      expect(badRole.status).toBe(400);
    });

    it('closes the SSE streams and graphql-ws sockets a key holds open when it is revoked, over REST and GraphQL (issue 39)', async () => {
      const rest = (await operator('POST', '/api/keys', { name: 'watcher', role: 'viewer' })).body;
      const viaRest = await watchedWith(running, rest.key, 'watched-by-rest-key');
      const revokedAt = Date.now();
      expect((await operator('DELETE', `/api/keys/${rest.apiKey.id}`)).status).toBe(200);
      await expectClosed(viaRest, revokedAt, 'credential_revoked', 'was revoked');

      const gql = (await operator('POST', '/api/keys', { name: 'gql-watcher', role: 'viewer' })).body;
      const viaGraphql = await watchedWith(running, gql.key, 'watched-by-graphql-key');
      const revokedByGraphqlAt = Date.now();
      const revoked = await graphqlHttp(() => running.baseUrl, TOKEN)('mutation ($id: ID!) { revokeApiKey(id: $id) { id } }', { id: gql.apiKey.id });
      expect(revoked.body.data).toEqual({ revokeApiKey: { id: gql.apiKey.id } });
      await expectClosed(viaGraphql, revokedByGraphqlAt, 'credential_revoked', 'was revoked');
    });

    it('closes the streams of a key when it expires (issue 39)', async () => {
      const expiresAt = new Date(Date.now() + 2_500).toISOString();
      const { key } = (await operator('POST', '/api/keys', { name: 'expiring-watcher', role: 'viewer', expiresAt })).body;
      const watched = await watchedWith(running, key, 'watched-by-expiring-key');
      expect(Date.now()).toBeLessThan(Date.parse(expiresAt));
      await expectClosed(watched, Date.parse(expiresAt), 'credential_expired', 'expired at');
    });

    it('lets an operator key operate runs and sessions but refuses it the keys and approvals with a 403 naming the permission, the roles and its own', async () => {
      const { key } = (await operator('POST', '/api/keys', { name: 'reader', role: 'operator' })).body;
      const reader = withKey(key);
      expect((await reader('GET', '/api/sessions')).status).toBe(200);
      // Past the guard: the run does not exist.
      expect(await reader('POST', '/api/runs/00000000-0000-4000-8000-000000000000/stop', {})).toMatchObject({
        status: 404,
        body: { code: 'unknown_run' },
      });
      for (const [method, path, body] of [
        ['POST', '/api/keys', { name: 'escalate', role: 'admin' }],
        ['GET', '/api/keys', undefined],
      ] as const) {
        const refused = await reader(method, path, body);
        expect(refused).toMatchObject({
          status: 403,
          body: {
            code: 'forbidden',
            message: expect.stringMatching(/needs the administer permission \(roles: admin\); reader has the operator role/),
            details: { needs: ['administer'], roles: ['admin'], role: 'operator' },
          },
        });
      }
      const decision = await reader('POST', '/api/approvals/00000000-0000-4000-8000-000000000000', { decision: 'approve' });
      expect(decision).toMatchObject({ status: 403, body: { details: { needs: ['approve'], roles: ['approver', 'admin'] } } });
      const gql = graphqlHttp(() => running.baseUrl, key);
      expect((await gql('{ agents { id } }')).body.data).toEqual({ agents: [] });
      const mutation = await gql('mutation { createApiKey(input: { name: "x", role: "admin" }) { key } }');
      expect(mutation.body.errors?.[0]).toMatchObject({
        extensions: { code: 'forbidden', statusCode: 403 },
        message: expect.stringContaining('needs the administer permission'),
      });
    });

    it('creates, lists and revokes keys over GraphQL too', async () => {
      const gql = graphqlHttp(() => running.baseUrl, TOKEN);
      const created = await gql('mutation { createApiKey(input: { name: "graphql-bot", role: "approver" }) { key apiKey { id name role prefix } } }');
      const { key, apiKey } = created.body.data.createApiKey;
      expect(apiKey).toMatchObject({ name: 'graphql-bot', role: 'approver', prefix: key.slice(0, 12) });
      expect((await graphqlHttp(() => running.baseUrl, key)('{ me { kind name role } }')).body.data.me).toEqual({
        kind: 'key',
        name: 'graphql-bot',
        role: 'approver',
      });
      expect((await gql('{ apiKeys { id } }')).body.data.apiKeys).toContainEqual({ id: apiKey.id });
      const revoked = await gql('mutation ($id: ID!) { revokeApiKey(id: $id) { revokedBy } }', { id: apiKey.id });
      expect(revoked.body.data.revokeApiKey).toEqual({ revokedBy: 'operator' });
      expect((await graphqlHttp(() => running.baseUrl, key)('{ me { kind } }')).status).toBe(401);
    });
  });

  describe('keys on the open loopback', () => {
    let running: RunningApp;
    beforeAll(async () => {
      running = await startTestApp({ apiToken: undefined });
    });
    afterAll(async () => running.close());

    it('refuses a first key of another role than admin with a 422 saying why, over REST and GraphQL, and leaves the API open (issue 39)', async () => {
      const open = jsonHttp(() => running.baseUrl);
      const viewer = await open('POST', '/api/keys', { name: 'first-viewer', role: 'viewer' });
      expect(viewer).toMatchObject({
        status: 422,
        body: {
          code: 'first_key_must_be_admin',
          message: expect.stringContaining('closes the open local API'),
          details: { role: 'viewer', needs: 'admin' },
        },
      });
      const gql = await graphqlHttp(() => running.baseUrl)('mutation { createApiKey(input: { name: "first-operator", role: "operator" }) { key } }');
      expect(gql.body.errors?.[0]).toMatchObject({ extensions: { code: 'first_key_must_be_admin', statusCode: 422 } });
      // Nothing was created: the API is still open and there are no keys.
      expect(await open('GET', '/api/keys')).toEqual({ status: 200, body: { keys: [] } });
    });

    it('closes the open API once a key exists: anonymous is 401 (API docs and health detail too), the key works', async () => {
      const open = jsonHttp(() => running.baseUrl);
      expect((await open('GET', '/health/live')).body).toHaveProperty('pid');
      const created = await open('POST', '/api/keys', { name: 'first', role: 'admin' });
      expect(created.body.apiKey.createdBy).toBe('local');
      expect(await open('GET', '/api/me')).toMatchObject({ status: 401, body: { code: 'unauthorized' } });
      expect((await jsonHttp(() => running.baseUrl, { authorization: `Bearer ${created.body.key}` })('GET', '/api/me')).body).toMatchObject({
        kind: 'key',
        role: 'admin',
      });
      expect((await open('GET', '/api/docs-json')).status).toBe(401);
      expect((await jsonHttp(() => running.baseUrl, { authorization: `Bearer ${created.body.key}` })('GET', '/api/docs-json')).status).toBe(200);
      expect((await open('GET', '/health/live')).body).toEqual({ status: 'live' });
      expect((await jsonHttp(() => running.baseUrl, { authorization: `Bearer ${created.body.key}` })('GET', '/health/live')).body).toHaveProperty('pid');
    });

    it('lets a locked-out operator back in without a restart: keys:create-admin on the host makes an admin key the running service takes (issue 39)', async () => {
      // The API is closed now (the previous test's key): nobody anonymous gets in, and the key is "lost".
      expect((await jsonHttp(() => running.baseUrl)('GET', '/api/me')).status).toBe(401);
      const { code, stdout, stderr } = await createAdminKeyOnTheHost(running, ['--name', 'back-in']);
      expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
      const key = /^(sbk_[A-Za-z0-9_-]{43})$/m.exec(stdout)?.[1];
      expect(stdout).toContain('created the admin API key "back-in"');
      const withKey = jsonHttp(() => running.baseUrl, { authorization: `Bearer ${key}` });
      expect((await withKey('GET', '/api/me')).body).toMatchObject({ kind: 'key', name: 'back-in', role: 'admin' });
      expect((await withKey('GET', '/api/keys')).body.keys).toContainEqual(
        expect.objectContaining({ name: 'back-in', role: 'admin', createdBy: 'cli:keys-create-admin' }),
      );
      // A wrong call changes nothing and says how to call it.
      const usage = await createAdminKeyOnTheHost(running, ['--role', 'viewer']);
      expect(usage).toMatchObject({ code: 2, stderr: expect.stringContaining('usage: npm run keys:create-admin') });
    });
  });

  describe('two instances sharing a PostgreSQL', () => {
    let server: PostgresServer;
    const apps: RunningApp[] = [];
    beforeAll(async () => {
      server = await startPostgresServer();
      const url = await server.createDatabase('identity');
      for (let i = 0; i < 2; i++) apps.push(await startTestApp({ apiToken: TOKEN, postgres: { url, poolSize: 2 } }, makeTempDir().dir));
    });
    afterAll(async () => {
      for (const app of apps) await app.close();
      server?.stop();
    });

    it('refuses a key revoked on one instance on the other at the next request', async () => {
      const [a, b] = apps;
      const created = await jsonHttp(() => a.baseUrl, { authorization: `Bearer ${TOKEN}` })('POST', '/api/keys', { name: 'shared', role: 'viewer' });
      const onB = jsonHttp(() => b.baseUrl, { authorization: `Bearer ${created.body.key}` });
      expect((await onB('GET', '/api/me')).body).toMatchObject({ kind: 'key', name: 'shared' });
      await jsonHttp(() => a.baseUrl, { authorization: `Bearer ${TOKEN}` })('DELETE', `/api/keys/${created.body.apiKey.id}`);
      expect(await onB('GET', '/api/me')).toMatchObject({ status: 401, body: { message: expect.stringContaining('was revoked at') } });
    });

    it('closes the streams a key holds open on the other instance when it is revoked on one (issue 39)', async () => {
      const [a, b] = apps;
      const created = await jsonHttp(() => a.baseUrl, { authorization: `Bearer ${TOKEN}` })('POST', '/api/keys', { name: 'watching-b', role: 'viewer' });
      const watched = await watchedWith(a, created.body.key, 'watched-on-b', b);
      const revokedAt = Date.now();
      expect((await jsonHttp(() => a.baseUrl, { authorization: `Bearer ${TOKEN}` })('DELETE', `/api/keys/${created.body.apiKey.id}`)).status).toBe(200);
      await expectClosed(watched, revokedAt, 'credential_revoked', 'was revoked');
    });
  });
});
