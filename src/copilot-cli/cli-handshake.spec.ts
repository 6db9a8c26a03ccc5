import { ErrorCodes, ResponseError } from 'vscode-jsonrpc/node';
import { CONNECT_PARAMS, type HandshakeRequest, negotiateProtocol, PING_PARAMS, supportedProtocol } from './cli-handshake';
import { CopilotCliUnavailableError } from './copilot-cli.errors';

/** A CLI's answers as a table: method → answer, or the error it refuses with. Records what was asked. */
function cliAnswering(answers: Record<string, unknown>) {
  const asked: Array<[string, unknown]> = [];
  const send = ((method: string, params: unknown) => {
    asked.push([method, params]);
    if (!(method in answers)) return Promise.reject(new ResponseError(ErrorCodes.MethodNotFound, `Unhandled method ${method}`));
    const answer = answers[method];
    return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer);
  }) as HandshakeRequest;
  return { send, asked };
}

describe('negotiateProtocol', () => {
  it('protocol 3: connect answers with the protocol and the CLI version; ping is never sent', async () => {
    const cli = cliAnswering({ connect: { ok: true, protocolVersion: 3, version: '1.0.102' } });
    await expect(negotiateProtocol(cli.send)).resolves.toEqual({ protocolVersion: 3, cliVersion: '1.0.102' });
    expect(cli.asked).toEqual([['connect', CONNECT_PARAMS]]);
    expect(CONNECT_PARAMS).toEqual({ supportedTaskKinds: ['agent', 'client', 'shell'] });
  });

  it('protocol 2: connect refused as an unknown method, then ping reports the protocol (no CLI version)', async () => {
    const cli = cliAnswering({ ping: { message: 'pong', protocolVersion: 2 } });
    await expect(negotiateProtocol(cli.send)).resolves.toEqual({ protocolVersion: 2 });
    expect(cli.asked).toEqual([
      ['connect', CONNECT_PARAMS],
      ['ping', PING_PARAMS],
    ]);
  });

  it('a CLI that answers connect with protocol 2 is taken at its word', async () => {
    const cli = cliAnswering({ connect: { protocolVersion: 2, version: 'x' } });
    await expect(negotiateProtocol(cli.send)).resolves.toEqual({ protocolVersion: 2, cliVersion: 'x' });
  });

  it.each([
    ['connect with protocol 9', { connect: { protocolVersion: 9 } }, 'protocol 9;'],
    ['connect without a protocol', { connect: {} }, 'protocol undefined;'],
    ['connect with null', { connect: null }, 'protocol undefined;'],
    ['connect with protocol "3" as a string', { connect: { protocolVersion: '3' } }, 'protocol 3;'],
    ['ping with protocol 1', { ping: { protocolVersion: 1 } }, 'protocol 1;'],
  ])('refuses %s with a message naming both sides and the fix', async (_case, answers, named) => {
    const refusal = await negotiateProtocol(cliAnswering(answers).send).catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(CopilotCliUnavailableError);
    expect((refusal as Error).message).toContain(`The Copilot CLI speaks ${named}`);
    expect((refusal as Error).message).toContain('Switchboard supports protocols 2 and 3. Install a matching @github/copilot or set COPILOT_CLI_PATH.');
  });

  it('passes on any other refusal of connect unchanged, without falling back to ping', async () => {
    const broken = new ResponseError(ErrorCodes.InternalError, 'not ready');
    const cli = cliAnswering({ connect: broken, ping: { protocolVersion: 2 } });
    await expect(negotiateProtocol(cli.send)).rejects.toBe(broken);
    expect(cli.asked.map(([method]) => method)).toEqual(['connect']);
  });

  it('a CLI that never answers is refused after the timeout as unavailable', async () => {
    const silent = (() => new Promise<never>(() => undefined)) as HandshakeRequest;
    await expect(negotiateProtocol(silent, 5)).rejects.toThrow(new CopilotCliUnavailableError('The Copilot CLI did not answer the handshake'));
  });

  it('the timeout covers the ping of the fallback too', async () => {
    const cli = cliAnswering({});
    const silentPing = ((method: string, params: unknown) =>
      method === 'ping' ? new Promise<never>(() => undefined) : cli.send(method, params)) as HandshakeRequest;
    await expect(negotiateProtocol(silentPing, 5)).rejects.toBeInstanceOf(CopilotCliUnavailableError);
  });
});

describe('supportedProtocol', () => {
  it('accepts exactly 2 and 3', () => {
    expect(supportedProtocol(2)).toBe(2);
    expect(supportedProtocol(3)).toBe(3);
    for (const other of [1, 4, '2', null, undefined, 2.5]) expect(() => supportedProtocol(other)).toThrow(CopilotCliUnavailableError);
  });
});
