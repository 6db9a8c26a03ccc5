import type { BrowserContext, Page } from '@playwright/test';
import * as fs from 'node:fs';
import { TEST_ACCOUNTS } from '../../test/fixtures/oidc-test-accounts';
import { expect, test, TEST_API_TOKEN } from './fixtures';
import { ASKED_SHELL_SESSION, askedShellCommandScript, expectNoSeriousA11yViolations, inBothThemes, screenshot } from './support';

// Issue 27: people sign in to the console through OpenID Connect: a real provider (oidc-provider, on
// loopback) and its own login page. The service also has a token: the scenarios set things up over
// the API as the operator, behind the signed-in person's back. The console never asks a signed-in
// person for a token; what their role may not do is not offered.
test.use({ apiToken: TEST_API_TOKEN, signIn: true });

const tokenDialog = (page: Page) => page.getByRole('dialog', { name: 'API token' });
const signedInAs = (page: Page) => page.getByTestId('signed-in-as');
const nav = (page: Page) => page.getByRole('navigation', { name: 'Main' });

/** Nothing leaves the machine: the provider's page asks for a web font on the Internet. */
async function loopbackOnly(context: BrowserContext): Promise<void> {
  await context.route(
    (url) => url.hostname !== '127.0.0.1',
    (route) => route.abort(),
  );
}

/**
 * Opens the console signed out and signs `login` in through the provider's login and consent pages:
 * the console sent the browser there on its first refused call, and the provider sends it back.
 */
async function signInAs(page: Page, serviceUrl: string, login: keyof typeof TEST_ACCOUNTS): Promise<void> {
  await loopbackOnly(page.context());
  await page.goto('/agents');
  await page.waitForURL((url) => url.origin !== serviceUrl);
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill('any password');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.waitForURL((url) => url.origin === serviceUrl);
  await expect(signedInAs(page)).toContainText(TEST_ACCOUNTS[login].name);
}

/** The session cookie's value as the browser holds it. */
async function sessionCookie(context: BrowserContext): Promise<string | undefined> {
  return (await context.cookies()).find((c) => c.name === 'switchboard_session')?.value;
}

/** A session of the operator's whose sub-agent's shell command waits for a person (the approvals spec's scenario, over the API). */
async function pendingApproval(
  api: import('./service').AgentsApi,
  model: import('../../test/fixtures/scripted-model-server').ScriptedModelServer,
  marker: string,
): Promise<{ sessionId: string; approvalId: string }> {
  model.setScript(askedShellCommandScript(`echo ${marker}`, 'print a marker'));
  const { sessionId } = await api.call<{ sessionId: string }>('POST', '/api/sessions', ASKED_SHELL_SESSION);
  await api.call('POST', `/api/sessions/${sessionId}/messages`, { prompt: 'Ask the operator to run it.' });
  let approvalId = '';
  await expect
    .poll(async () => {
      const { approvals } = await api.call<{ approvals: Array<{ id: string; status: string }> }>('GET', '/api/approvals?status=pending');
      approvalId = approvals[0]?.id ?? '';
      return approvalId;
    })
    .not.toBe('');
  return { sessionId, approvalId };
}

test('a person signs in through the provider’s login page, sees their name and role, and Sign out ends the session at the service', async ({
  page,
  context,
  service,
}) => {
  await signInAs(page, service.url, 'ada');
  await expect(signedInAs(page)).toContainText('admin');
  await expect(page.getByRole('heading', { level: 1, name: 'Agents' })).toBeVisible();
  await expect(tokenDialog(page)).toHaveCount(0);
  // Never a token in the page's storage for a person: the HttpOnly cookie is the credential.
  expect(await page.evaluate(() => Object.keys(sessionStorage).length + Object.keys(localStorage).filter((k) => k.includes('Token')).length)).toBe(0);
  await inBothThemes(page, () => expectNoSeriousA11yViolations(page));
  await screenshot(page, 'signed-in', { fullPage: false });

  // The API docs open for the signed-in person: the cookie is their credential there too (issue 39).
  await page.getByRole('link', { name: 'API docs' }).click();
  await expect(page.getByRole('button', { name: /GET \/api\/me\b/ })).toBeVisible();
  await page.goto('/agents');

  const cookie = await sessionCookie(context);
  expect(cookie).toBeDefined();
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/signed-out$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Signed out' })).toBeVisible();
  expect(await sessionCookie(context)).toBeUndefined();
  // The same cookie replayed from the console's own origin: the session ended server-side.
  const replayed = await fetch(`${service.url}/api/me`, { headers: { cookie: `switchboard_session=${cookie}`, origin: service.url } });
  expect(replayed.status).toBe(401);
  expect(await replayed.json()).toMatchObject({ code: 'sign_in_again', details: { signIn: '/auth/login' } });

  // Signing in again is the person's choice, one click away.
  await page.getByRole('link', { name: 'Sign in again' }).click();
  const back = page.getByRole('button', { name: 'Sign-in' }).or(signedInAs(page));
  await expect(back).toBeVisible();
  if (await page.getByRole('button', { name: 'Sign-in' }).isVisible()) {
    await page.locator('input[name="login"]').fill('ada');
    await page.locator('input[name="password"]').fill('any password');
    await page.getByRole('button', { name: 'Sign-in' }).click();
  }
  const consent = page.getByRole('button', { name: 'Continue' });
  if (await consent.isVisible()) await consent.click();
  await expect(signedInAs(page)).toContainText('Ada Admin');
  expect(await sessionCookie(context)).not.toBe(cookie);
});

test('a viewer sees everything read-only: no new agent, session, schedule or key, no Start session, no message box, no Approve, no Run now', async ({
  page,
  service,
  api,
  model,
}) => {
  await api.createAgent({ id: 'reviewer', name: 'Reviewer', description: 'Reviews pull requests', system_message: { content: 'Review the diff.' } });
  const marker = `VIEWER_${Date.now().toString(36)}`;
  const { sessionId } = await pendingApproval(api, model, marker);

  await signInAs(page, service.url, 'vera');
  await expect(signedInAs(page)).toContainText('viewer');
  const card = page.getByRole('article', { name: 'Reviewer' });
  await expect(card).toBeVisible();
  await expect(card.getByRole('link', { name: 'Start session' })).toHaveCount(0);
  await expect(card.getByRole('link', { name: 'Schedule…' })).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'New agent' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Import' })).toHaveCount(0);
  await expect(nav(page).getByRole('link', { name: 'Keys' })).toHaveCount(0);

  await page.goto('/agents/reviewer');
  await expect(page.getByRole('heading', { level: 1, name: /Reviewer/ })).toBeVisible();
  await expect(page.getByText('Read only: only an admin changes the agent library.')).toBeVisible();
  await expect(page.getByRole('button', { name: /^(Save|Delete)$/ })).toHaveCount(0);

  await page.goto('/sessions');
  await expect(page.getByRole('heading', { level: 1, name: 'Sessions' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'New session' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^(Destroy|Resume)$/ })).toHaveCount(0);

  await page.goto(`/sessions/${sessionId}`);
  await expect(page.getByText('Read only: your role may not message, steer, pause or stop sessions.')).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Message' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^(Send|Stop|Pause|Resume)$/ })).toHaveCount(0);

  await page.goto('/approvals');
  const pending = page.locator('.approval-card').filter({ hasText: marker });
  await expect(pending).toBeVisible();
  await expect(pending).toContainText('your role may not decide approvals');
  await expect(pending.getByRole('button', { name: /^(Approve|Deny)$/ })).toHaveCount(0);
  await inBothThemes(page, () => expectNoSeriousA11yViolations(page));

  const schedule = await api.call<{ id: string }>('POST', '/api/schedules', {
    name: 'Yearly review',
    agentId: 'reviewer',
    prompt: 'Review.',
    cron: '0 0 1 1 *',
  });
  await page.goto('/schedules');
  const row = page.locator('.schedule-table tbody tr', { hasText: 'Yearly review' });
  await expect(row.locator('td').nth(2)).toHaveText('on');
  await expect(row.getByRole('switch')).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'New schedule' })).toHaveCount(0);
  await row.getByRole('link', { name: 'Yearly review' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Yearly review' })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Next firings' })).toBeVisible();
  await expect(page.getByRole('button', { name: /^(Run now|Disable|Delete)$/ })).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Edit' })).toHaveCount(0);

  await page.goto('/keys');
  await expect(page.getByText('Only an admin manages API keys.')).toBeVisible();
  await api.call('DELETE', `/api/sessions/${sessionId}`);
  await api.call('DELETE', `/api/schedules/${schedule.id}`);
});

test('an approver’s decision carries their name into the audit export', async ({ page, service, api, model }) => {
  const marker = `DECIDED_${Date.now().toString(36)}`;
  const { sessionId, approvalId } = await pendingApproval(api, model, marker);

  await signInAs(page, service.url, 'ada');
  await page.goto('/approvals');
  const pending = page.locator('.approval-card').filter({ hasText: marker });
  await pending.getByRole('button', { name: 'Approve' }).click();
  await expect(pending).toHaveCount(0);

  await nav(page).getByRole('link', { name: 'Audit' }).click();
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export JSONL' }).click();
  const file = await (await download).path();
  const rows = fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { eventType: string; streamId: string; actorName?: string });
  const decided = rows.find((row) => row.eventType === 'approval.decided' && row.streamId === `approval-${approvalId}`);
  expect(decided, 'the decision is in the export').toBeDefined();
  // Part A of issue 27 records who decided (metadata.by) and the export carries it as actorName.
  expect(decided?.actorName).toBe('Ada Admin');
  await api.call('DELETE', `/api/sessions/${sessionId}`);
});

test('an admin creates a key (shown once, to copy), sees it listed with its last use, and revokes it after confirming', async ({
  page,
  context,
  service,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: service.url });
  await signInAs(page, service.url, 'ada');
  await nav(page).getByRole('link', { name: 'Keys' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'API keys' })).toBeVisible();
  await expect(page.getByText('No keys yet.')).toBeVisible();

  const form = page.getByRole('form', { name: 'New API key' });
  await form.getByLabel('Name').fill('ci-pipeline');
  await form.getByLabel('Role').selectOption('operator');
  await form.getByRole('button', { name: 'Create key' }).click();
  const shown = page.getByRole('region', { name: 'New key' });
  await expect(shown).toContainText('you will not see it again');
  const key = (await shown.getByTestId('new-key').textContent()) ?? '';
  expect(key).toMatch(/^sbk_\S{40,}$/);
  await shown.getByRole('button', { name: 'Copy' }).click();
  await expect(shown.getByRole('button', { name: 'Copied' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
  await inBothThemes(page, () => expectNoSeriousA11yViolations(page));
  await screenshot(page, 'keys');

  // The key works as the operator role it was given, for a program.
  const me = await fetch(`${service.url}/api/me`, { headers: { authorization: `Bearer ${key}` } });
  expect(await me.json()).toMatchObject({ name: 'ci-pipeline', role: 'operator' });

  await shown.getByRole('button', { name: 'Done' }).click();
  await expect(shown).toHaveCount(0);
  // Its use is recorded in the background (at most once a minute): listed once it is.
  await expect
    .poll(async () => {
      const { keys } = await (await fetch(`${service.url}/api/keys`, { headers: { authorization: `Bearer ${TEST_API_TOKEN}` } })).json();
      return (keys as Array<{ name: string; lastUsedAt?: string | null }>).find((k) => k.name === 'ci-pipeline')?.lastUsedAt ?? null;
    })
    .not.toBeNull();
  await page.reload();
  const row = page.getByRole('row').filter({ hasText: 'ci-pipeline' });
  await expect(row).toContainText('operator');
  await expect(row).toContainText(key.slice(0, 12));
  await expect(row).toContainText('by ada');
  await expect(row).toContainText('active');
  // Listed by its prefix only: the key itself is never shown again.
  await expect(page.getByText(key)).toHaveCount(0);
  await expect(row.getByRole('cell').nth(3)).not.toHaveText('—');

  await row.getByRole('button', { name: 'Revoke ci-pipeline' }).click();
  const confirm = page.getByRole('dialog', { name: 'Revoke the key “ci-pipeline”?' });
  await confirm.getByRole('button', { name: 'Keep it' }).click();
  await expect(row).toContainText('active');
  await row.getByRole('button', { name: 'Revoke ci-pipeline' }).click();
  await confirm.getByRole('button', { name: 'Revoke' }).click();
  await expect(row).toContainText(/revoked .* by ada/);
  await expect(row.getByRole('button', { name: 'Revoke ci-pipeline' })).toHaveCount(0);
  expect((await fetch(`${service.url}/api/me`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(401);
});
