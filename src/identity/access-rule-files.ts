import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ACCESS_RULES, type AccessRuleSet } from './access-policy';

const SRC = join(__dirname, '..');
const ACCESS_FILE = /\.access\.(ts|js)$/;

function accessFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return accessFiles(path);
    return ACCESS_FILE.test(entry.name) ? [path] : [];
  });
}

type RuleSetClass = new () => AccessRuleSet;
const isRuleSetClass = (value: unknown): value is RuleSetClass => typeof value === 'function' && Reflect.getMetadata(ACCESS_RULES, value) === true;

/**
 * Every context's rules read from its `*.access.ts` file, without an app: what the docs check and the
 * role-matrix test compare the running app's table (gathered through discovery) with.
 */
export async function accessRuleSetsInFiles(dir = SRC): Promise<AccessRuleSet[]> {
  const modules = await Promise.all(accessFiles(dir).map(async (file) => (await import(file)) as Record<string, unknown>));
  return modules.flatMap((exported) =>
    Object.values(exported)
      .filter(isRuleSetClass)
      .map((RuleSet) => new RuleSet()),
  );
}
