import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { serviceVersion } from './service-version';

describe('serviceVersion', () => {
  it("is package.json's version, found from the source folder as from dist/", () => {
    const manifest = JSON.parse(readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8')) as { version: string };
    expect(serviceVersion()).toBe(manifest.version);
    expect(serviceVersion()).not.toBe('unknown');
  });
});
