import { InvalidConfigurationError } from './config';
import { startupRefusal } from './service-lifecycle';

const errno = (code: string, message = `listen ${code}`) => Object.assign(new Error(message), { code });

describe('startupRefusal', () => {
  const target = { port: 3000, host: '0.0.0.0' };

  it('lists every configuration problem on one line', () => {
    const error = new InvalidConfigurationError(['PORT must be an integer', 'LOG_LEVEL must be one of fatal']);
    expect(startupRefusal(error)).toBe('invalid configuration: PORT must be an integer; LOG_LEVEL must be one of fatal');
  });

  it.each([
    ['EADDRINUSE', 'the port is already in use; stop the other process or set another PORT'],
    ['EACCES', 'permission denied (ports below 1024 need privileges); set another PORT'],
    ['EADDRNOTAVAIL', 'HOST is not an address of this machine'],
    ['ENOTFOUND', 'HOST is not an address of this machine'],
  ])('names PORT and HOST when listening fails with %s', (code, reason) => {
    expect(startupRefusal(errno(code), target)).toBe(`cannot listen on 0.0.0.0:3000 (PORT=3000, HOST=0.0.0.0): ${reason}`);
  });

  it('keeps any other message, folded onto one line, and its stack only when asked', () => {
    const error = new Error('Cannot use database file /x.db:\n  it is corrupt');
    expect(startupRefusal(error, target)).toBe('Cannot use database file /x.db: it is corrupt');
    expect(startupRefusal(error, target, true).split('\n').length).toBeGreaterThan(1);
    expect(startupRefusal('plain')).toBe('plain');
  });
});
