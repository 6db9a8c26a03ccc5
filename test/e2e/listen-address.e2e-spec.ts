import * as fs from 'node:fs';
import * as path from 'node:path';
import { collectUntilExit, freePort, spawnTs, waitForHttp } from '../fixtures/service-process';
import { makeTempDir } from '../fixtures/temp-dir';

/** The service's JSON log lines with a msg, from its stdout. */
const logLines = (stdout: string) =>
  stdout
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);

/**
 * issue 10 §1: without SWITCHBOARD_API_TOKEN the service listens on loopback only, and refuses to
 * start on another address unless the operator accepts an open API or people sign in through OpenID
 * Connect (src/main.ts as a process).
 */
describe('where the service listens, with and without a token', () => {
  let tmp: ReturnType<typeof makeTempDir>;
  beforeEach(() => (tmp = makeTempDir()));
  afterEach(() => tmp.cleanup());

  const env = (extra: NodeJS.ProcessEnv) => ({
    SWITCHBOARD_API_TOKEN: '',
    HOST: '',
    SWITCHBOARD_ALLOW_UNAUTHENTICATED: '',
    SWITCHBOARD_WEBHOOK_SECRET: '',
    SWITCHBOARD_OIDC_ISSUER: '',
    SWITCHBOARD_DB: path.join(tmp.dir, 'switchboard.db'),
    ...extra,
  });

  /** Starts main.ts, waits for /health on loopback, stops it with SIGTERM; returns its log lines. */
  async function startAndStop(extra: NodeJS.ProcessEnv) {
    const port = await freePort();
    const child = spawnTs('src/main.ts', [], env({ PORT: String(port), ...extra }));
    const exited = collectUntilExit(child);
    expect((await waitForHttp(`http://127.0.0.1:${port}/health`, child)).status).toBe(200);
    child.kill('SIGTERM');
    const { code, stdout } = await exited;
    expect(code).toBe(0);
    return logLines(stdout);
  }

  it.each(['0.0.0.0', '::', '192.0.2.10'])(
    'refuses to start on HOST=%s without a token, naming HOST and SWITCHBOARD_API_TOKEN',
    async (host) => {
      const child = spawnTs('src/main.ts', [], env({ HOST: host, PORT: String(await freePort()) }));
      const { code, stderr } = await collectUntilExit(child);
      expect(code).toBe(1);
      expect(stderr).toContain(`HOST=${host} listens beyond this machine but SWITCHBOARD_API_TOKEN is not set`);
      expect(stderr).toContain('SWITCHBOARD_ALLOW_UNAUTHENTICATED=true');
      expect(fs.existsSync(path.join(tmp.dir, 'switchboard.db'))).toBe(false);
    },
    60_000,
  );

  it('listens on 127.0.0.1 by default without a token, says which hosts it serves, and warns that webhook calls are unsigned', async () => {
    const lines = await startAndStop({ SWITCHBOARD_ALLOWED_HOSTS: 'switchboard.lan', SWITCHBOARD_ALLOWED_ORIGINS: 'http://localhost:5173' });
    const listening = lines.find((l) => l.msg === 'listening');
    expect(listening).toMatchObject({ host: '127.0.0.1', auth: 'open', served: { origins: ['http://localhost:5173'] } });
    // The Host names it answers to, for an operator wondering about a 421.
    expect((listening?.served as { hosts: string[] }).hosts).toEqual(expect.arrayContaining(['127.0.0.1:' + String(listening?.port), 'switchboard.lan']));
    expect(lines.some((l) => String(l.msg).startsWith('neither SWITCHBOARD_ALLOWED_HOSTS'))).toBe(false);
    expect(lines.some((l) => String(l.msg).startsWith('SWITCHBOARD_WEBHOOK_SECRET is not set'))).toBe(true);
  }, 60_000);

  it('listens on every address by default with a token', async () => {
    const lines = await startAndStop({ SWITCHBOARD_API_TOKEN: 'a-token-of-16-chars', SWITCHBOARD_WEBHOOK_SECRET: 'signing-secret' });
    expect(lines.find((l) => l.msg === 'listening')).toMatchObject({ host: '0.0.0.0', auth: 'bearer token' });
    expect(lines.some((l) => String(l.msg).startsWith('SWITCHBOARD_WEBHOOK_SECRET is not set'))).toBe(false);
    // issue 22: reached by a DNS name, it would answer 421 until the name is listed; the log says so.
    expect(lines.some((l) => String(l.msg).startsWith('neither SWITCHBOARD_ALLOWED_HOSTS nor SWITCHBOARD_PUBLIC_URL is set'))).toBe(true);
  }, 60_000);

  // issue 27: people signing in through OpenID Connect close the API as the token does.
  it('starts on 0.0.0.0 with sign-in configured and no token, without the open-API warning, and the API asks for credentials', async () => {
    const port = await freePort();
    const child = spawnTs(
      'src/main.ts',
      [],
      env({
        PORT: String(port),
        HOST: '0.0.0.0',
        // Never reached: the provider is asked at the first sign-in, not at the start.
        SWITCHBOARD_OIDC_ISSUER: 'http://127.0.0.1:9/unused-issuer',
        SWITCHBOARD_OIDC_CLIENT_ID: 'switchboard',
        SWITCHBOARD_PUBLIC_URL: `http://127.0.0.1:${port}`,
      }),
    );
    const exited = collectUntilExit(child);
    expect((await waitForHttp(`http://127.0.0.1:${port}/health`, child)).status).toBe(200);
    expect((await fetch(`http://127.0.0.1:${port}/api/agents`)).status).toBe(401);
    child.kill('SIGTERM');
    const { code, stdout } = await exited;
    expect(code).toBe(0);
    const lines = logLines(stdout);
    expect(lines.find((l) => l.msg === 'listening')).toMatchObject({ host: '0.0.0.0', auth: 'sign-in' });
    expect(lines.some((l) => String(l.msg).includes('the API is open to anyone who reaches this address'))).toBe(false);
  }, 60_000);

  it('starts on 0.0.0.0 without a token when SWITCHBOARD_ALLOW_UNAUTHENTICATED=true, with a warning', async () => {
    const lines = await startAndStop({ HOST: '0.0.0.0', SWITCHBOARD_ALLOW_UNAUTHENTICATED: 'true' });
    expect(lines.find((l) => l.msg === 'listening')).toMatchObject({ host: '0.0.0.0', auth: 'open' });
    expect(lines.some((l) => String(l.msg).includes('the API is open to anyone who reaches this address'))).toBe(true);
  }, 60_000);
});
