import { InvalidConfigurationError, loadConfig } from './switchboard-config';

describe('loadConfig', () => {
  it('uses the documented defaults on an empty environment', () => {
    const config = loadConfig({});
    expect(config).toEqual({
      port: 3000,
      host: '0.0.0.0',
      database: { file: './data/switchboard.db', synchronous: 'FULL', busyTimeoutMs: 5000, integrityCheck: true },
      apiToken: undefined,
      logLevel: 'info',
    });
  });

  it('reads every variable', () => {
    const config = loadConfig({
      PORT: '8080',
      SWITCHBOARD_DB: '/var/lib/sb.db',
      SWITCHBOARD_DB_SYNCHRONOUS: 'normal',
      SWITCHBOARD_API_TOKEN: 'a-token-of-16-chars',
      LOG_LEVEL: 'debug',
    });
    expect(config.port).toBe(8080);
    expect(config.database.file).toBe('/var/lib/sb.db');
    expect(config.database.synchronous).toBe('NORMAL');
    expect(config.apiToken).toBe('a-token-of-16-chars');
    expect(config.logLevel).toBe('debug');
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['SWITCHBOARD_DB_SYNCHRONOUS', 'OFF'],
    ['SWITCHBOARD_DB_BUSY_TIMEOUT_MS', '-1'],
    ['SWITCHBOARD_DB_INTEGRITY_CHECK', 'maybe'],
    ['SWITCHBOARD_API_TOKEN', 'short'],
    ['LOG_LEVEL', 'loud'],
  ])('refuses a bad %s (%s) with a message naming the variable', (variable, value) => {
    expect(() => loadConfig({ [variable]: value })).toThrow(InvalidConfigurationError);
    expect(() => loadConfig({ [variable]: value })).toThrow(new RegExp(variable));
  });

  it('lists every bad variable at once', () => {
    try {
      loadConfig({ PORT: 'x', LOG_LEVEL: 'y' });
      throw new Error('expected a refusal');
    } catch (error) {
      expect((error as InvalidConfigurationError).problems).toHaveLength(2);
    }
  });

  it('treats an empty token as no token', () => {
    expect(loadConfig({ SWITCHBOARD_API_TOKEN: '' }).apiToken).toBeUndefined();
  });
});
