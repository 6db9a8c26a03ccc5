import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type AccessRule, type AccessRules, accessTableOf, judgeAccessIn, rolesAllowed } from './access-policy';
import { accessRuleSetsInFiles } from './access-rule-files';
import { PERMISSIONS, ROLES, type Role } from './principal';

const SECURITY_DOC = join(__dirname, '..', '..', 'docs', 'security.md');
const BEGIN = '<!-- access-policy table: generated from every src/<context>/<context>.access.ts -->';
const END = '<!-- end of access-policy table -->';

/** The table docs/security.md shows, one row per operation in the code's order. */
export function accessPolicyMarkdown(policy: Readonly<Record<string, AccessRule>>): string {
  const rows = Object.entries(policy).map(([operation, rule]) => {
    const needs = rule === 'public' ? 'public (no credential)' : rule.join(' or ');
    const roles = rule === 'public' ? 'anyone' : rolesAllowed(rule).join(', ');
    return `| \`${operation}\` | ${needs} | ${roles} |`;
  });
  return [BEGIN, '| operation | needs | roles |', '|---|---|---|', ...rows, END].join('\n');
}

const caller = (role: Role) => ({ name: `a ${role}`, role });

describe('the access policy table', () => {
  /** The contexts' rule files gathered as the app gathers them (one table, alphabetical). */
  let ACCESS_POLICY: AccessRules = {};
  const judgeAccess = (operation: string, who: { name: string; role: Role }) => judgeAccessIn(ACCESS_POLICY, operation, who);
  const mayCall = (operation: string) => ROLES.filter((role) => judgeAccess(operation, caller(role)).allowed);

  beforeAll(async () => {
    ACCESS_POLICY = accessTableOf(await accessRuleSetsInFiles());
  });

  it("gathers every context's rule file, and refuses an operation two contexts name (the check can fail)", () => {
    expect(Object.keys(ACCESS_POLICY).length).toBeGreaterThanOrEqual(131);
    expect(() => accessTableOf([{ rules: { 'Query.runs': ['read'] } }, { rules: { 'Query.runs': ['operate'] } }])).toThrow(
      'Query.runs has two access rules',
    );
  });

  it('names operations as Controller.method or a root GraphQL field, each with known, distinct permissions', () => {
    for (const [operation, rule] of Object.entries(ACCESS_POLICY)) {
      expect(operation).toMatch(/^([A-Z]\w*Controller\.\w+|(Query|Mutation|Subscription)\.\w+|Mcp\.(resource\.)?\w+|A2a\.\w+)$/);
      if (rule === 'public') continue;
      expect(rule.length).toBeGreaterThan(0);
      expect(new Set(rule).size).toBe(rule.length);
      for (const permission of rule) expect(PERMISSIONS).toContain(permission);
    }
  });

  it('gives each role what the issue says: viewers read, operators operate, approvers decide, admins everything', () => {
    expect(mayCall('RunsController.list')).toEqual(['viewer', 'operator', 'approver', 'admin']);
    expect(mayCall('Subscription.runEvents')).toEqual(['viewer', 'operator', 'approver', 'admin']);
    expect(mayCall('SessionsController.events')).toEqual(['viewer', 'operator', 'approver', 'admin']);
    for (const operation of ['RunsController.stop', 'Mutation.agentStop', 'SessionsController.create', 'Mutation.forkRun', 'PausesController.pauseRun']) {
      expect([operation, mayCall(operation)]).toEqual([operation, ['operator', 'admin']]);
    }
    for (const operation of ['ApprovalsController.decide', 'Mutation.decideApproval']) {
      expect([operation, mayCall(operation)]).toEqual([operation, ['approver', 'admin']]);
    }
    for (const operation of ['SessionRequestsController.answer', 'Mutation.answerUserInput']) {
      expect([operation, mayCall(operation)]).toEqual([operation, ['operator', 'approver', 'admin']]);
    }
    for (const operation of ['AgentsController.update', 'Mutation.importAgents', 'ApiKeysController.list', 'Query.apiKeys', 'Mutation.createApiKey']) {
      expect([operation, mayCall(operation)]).toEqual([operation, ['admin']]);
    }
  });

  it('lets an admin call everything but public routes need no role at all', () => {
    for (const operation of Object.keys(ACCESS_POLICY)) expect([operation, judgeAccess(operation, caller('admin')).allowed]).toEqual([operation, true]);
    expect(mayCall('HealthController.ready')).toEqual(ROLES);
  });

  it('words a refusal with the permission needed, the roles that have it, and the caller role', () => {
    expect(judgeAccess('RunsController.stop', { name: 'nightly-ci', role: 'viewer' })).toEqual({
      allowed: false,
      reason: 'denied',
      needs: ['operate'],
      roles: ['operator', 'admin'],
      message: 'RunsController.stop needs the operate permission (roles: operator, admin); nightly-ci has the viewer role',
    });
    expect(judgeAccess('Mutation.answerUserInput', { name: 'dashboard', role: 'viewer' })).toMatchObject({
      message: 'Mutation.answerUserInput needs the operate or approve permission (roles: operator, approver, admin); dashboard has the viewer role',
    });
  });

  it('refuses an operation without a rule to every role, admin included (fail closed)', () => {
    for (const role of ROLES) {
      expect(judgeAccess('RunsController.launchMissiles', caller(role))).toMatchObject({
        allowed: false,
        reason: 'no_rule',
        message: expect.stringContaining('RunsController.launchMissiles has no access rule'),
      });
    }
    // Not a lookup on the object's prototype either.
    expect(judgeAccess('Query.constructor', caller('admin'))).toMatchObject({ allowed: false, reason: 'no_rule' });
  });

  it('is the table docs/security.md shows (UPDATE_SECURITY_DOC=1 writes it again)', () => {
    const expected = accessPolicyMarkdown(ACCESS_POLICY);
    const tableOf = (doc: string) => (doc.includes(BEGIN) && doc.includes(END) ? doc.slice(doc.indexOf(BEGIN), doc.indexOf(END) + END.length) : undefined);
    const doc = readFileSync(SECURITY_DOC, 'utf8');
    const shown = tableOf(doc);
    if (process.env.UPDATE_SECURITY_DOC === '1' && shown !== undefined)
      writeFileSync(
        SECURITY_DOC,
        doc.replace(shown, () => expected),
      );
    expect(tableOf(readFileSync(SECURITY_DOC, 'utf8')) ?? `docs/security.md has no ${BEGIN} ... ${END} section`).toBe(expected);
  });
});
