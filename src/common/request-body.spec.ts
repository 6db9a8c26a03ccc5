import { refusedBodyOf } from './request-body';

/** An error as http-errors builds them for body-parser: status, expose (true below 500) and extra fields. */
function createError(status: number, cause: string | Error, fields: Record<string, unknown> = {}): Error {
  const error = typeof cause === 'string' ? new Error(cause) : cause;
  return Object.assign(error, { status, statusCode: status, expose: status < 500, ...fields });
}

/** Errors shaped as body-parser 2 and raw-body 3 raise them. */
describe('refusedBodyOf', () => {
  it('a body over the limit: 413 payload_too_large with the limit and the length', () => {
    const error = createError(413, 'request entity too large', { type: 'entity.too.large', limit: 1048576, length: 2000000 });
    expect(refusedBodyOf(error)).toEqual({
      statusCode: 413,
      code: 'payload_too_large',
      message: 'The request body is 2000000 bytes; at most 1048576 bytes are accepted: send a smaller body',
      details: { limit: 1048576, length: 2000000 },
    });
  });

  it('an unknown charset: 415 saying to send UTF-8', () => {
    const refused = refusedBodyOf(createError(415, 'unsupported charset "FOO"', { type: 'charset.unsupported', charset: 'foo' }));
    expect(refused).toMatchObject({ statusCode: 415, code: 'unsupported_media_type' });
    expect(refused?.message).toMatch(/Unsupported charset "foo": send JSON as UTF-8/);
  });

  it('an unknown content-encoding: 400 naming the encodings that work', () => {
    const refused = refusedBodyOf(createError(415, 'unsupported content encoding "bogus"', { type: 'encoding.unsupported', encoding: 'bogus' }));
    expect(refused).toMatchObject({ statusCode: 400, code: 'invalid_input', details: { encoding: 'bogus' } });
    expect(refused?.message).toMatch(/gzip, deflate or br/);
  });

  it('a body that does not decompress as declared: 400', () => {
    const zlib = Object.assign(new Error('incorrect header check'), { code: 'Z_DATA_ERROR', errno: -3 });
    expect(refusedBodyOf(createError(400, zlib))).toMatchObject({
      statusCode: 400,
      code: 'invalid_input',
      message: expect.stringContaining('incorrect header check'),
    });
  });

  it('a body shorter than its Content-Length, or cut off: 400', () => {
    expect(
      refusedBodyOf(createError(400, 'request size did not match content length', { type: 'request.size.invalid', expected: 10, received: 3 }))?.message,
    ).toMatch(/3 bytes but Content-Length says 10/);
    expect(refusedBodyOf(createError(400, 'request aborted', { type: 'request.aborted' }))).toMatchObject({ statusCode: 400 });
  });

  it('leaves server errors and plain errors to the filter (500, logged with their stack)', () => {
    expect(refusedBodyOf(new Error('boom'))).toBeUndefined();
    expect(refusedBodyOf(createError(500, 'stream encoding should not be set', { type: 'stream.encoding.set' }))).toBeUndefined();
    expect(refusedBodyOf(Object.assign(new Error('looks like a client error'), { status: 400 }))).toBeUndefined(); // not exposed
    expect(refusedBodyOf('400')).toBeUndefined();
  });
});
