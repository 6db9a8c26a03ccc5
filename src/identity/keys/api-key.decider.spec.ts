import { deciderSpec } from '../../../test/fixtures/decider-spec';
import { apiKeyDecider } from './api-key.decider';
import { FirstKeyMustBeAdminError } from './api-key.errors';
import { ApiKeyEvents } from './api-key.events';

const given = deciderSpec(apiKeyDecider);
const NOW = Date.parse('2026-12-01T10:00:00Z');
const key = (role: 'viewer' | 'admin') => ({
  keyId: 'k1',
  name: 'first',
  role,
  prefix: 'sbk_12345678',
  secretSha256: 'ab'.repeat(32),
  createdBy: 'local',
});

describe('an API key (issue 39: the first key on the open local API)', () => {
  it('refuses a first key of another role than admin asked for on the open local API, saying why', () => {
    given()
      .when({ type: 'create', key: key('viewer'), now: NOW, closesOpenApi: true })
      .thenThrows(FirstKeyMustBeAdminError, /first API key must have the admin role \(asked: viewer\): creating it closes the open local API/);
  });

  it('creates it as an admin key, and keys of any role once the API is closed', () => {
    given()
      .when({ type: 'create', key: key('admin'), now: NOW, closesOpenApi: true })
      .then([{ type: ApiKeyEvents.created, data: { ...key('admin'), createdAt: '2026-12-01T10:00:00.000Z' } }]);
    given()
      .when({ type: 'create', key: key('viewer'), now: NOW })
      .then([{ type: ApiKeyEvents.created, data: { ...key('viewer'), createdAt: '2026-12-01T10:00:00.000Z' } }]);
  });
});
