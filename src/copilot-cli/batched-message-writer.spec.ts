import { PassThrough, Writable } from 'node:stream';
import { type Message, StreamMessageReader } from 'vscode-jsonrpc/node';
import { BatchedMessageWriter } from './batched-message-writer';

const request = (id: number, params: unknown): Message & { id: number; method: string; params: unknown } => ({
  jsonrpc: '2.0',
  id,
  method: 'echo',
  params,
});

/** Every message a vscode-jsonrpc reader parses from the stream, and the chunks the stream carried. */
function readBack(stream: PassThrough): { messages: Message[]; chunks: Buffer[] } {
  const messages: Message[] = [];
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  const reader = new StreamMessageReader(stream.pipe(new PassThrough()));
  reader.listen((message) => messages.push(message));
  return { messages, chunks };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('BatchedMessageWriter', () => {
  it("sends one turn's messages as one write, each framed whole, in the order written", async () => {
    const stream = new PassThrough();
    const { messages, chunks } = readBack(stream);
    const writer = new BatchedMessageWriter(stream);
    const sent = [request(1, { text: 'plain' }), request(2, { text: 'ümlaut and emoji 🚀' }), request(3, { nested: { list: [1, 2, 3] } })];
    await Promise.all(sent.map((m) => writer.write(m)));
    await turn();
    expect(chunks).toHaveLength(1);
    expect(messages).toEqual(sent);
  });

  it('sends the messages of a later turn in a write of their own', async () => {
    const stream = new PassThrough();
    const { messages, chunks } = readBack(stream);
    const writer = new BatchedMessageWriter(stream);
    await writer.write(request(1, 'a'));
    await writer.write(request(2, 'b'));
    await turn();
    expect(chunks).toHaveLength(2);
    expect(messages).toEqual([request(1, 'a'), request(2, 'b')]);
  });

  it('refuses a message that is not JSON without losing the others of its turn', async () => {
    const stream = new PassThrough();
    const { messages } = readBack(stream);
    const writer = new BatchedMessageWriter(stream);
    const errors: Error[] = [];
    writer.onError(([error]) => errors.push(error));
    const first = writer.write(request(1, 'a'));
    await expect(writer.write(request(2, { big: 1n }))).rejects.toThrow(/BigInt/);
    const third = writer.write(request(3, 'c'));
    await Promise.all([first, third]);
    await turn();
    expect(messages).toEqual([request(1, 'a'), request(3, 'c')]);
    expect(errors).toHaveLength(1);
  });

  it('rejects the messages of a write the stream fails, and reports the failure', async () => {
    const failing = new Writable({ write: (_chunk, _encoding, callback) => callback(new Error('EPIPE: the CLI went away')) });
    failing.on('error', () => undefined);
    const writer = new BatchedMessageWriter(failing);
    const errors: Error[] = [];
    writer.onError(([error]) => errors.push(error));
    const results = await Promise.allSettled([writer.write(request(1, 'a')), writer.write(request(2, 'b'))]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(errors.map((e) => e.message)).toContain('EPIPE: the CLI went away');
  });
});
