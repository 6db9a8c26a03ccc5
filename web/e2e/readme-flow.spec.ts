import * as fs from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';

// README "From npm start to a team at work", steps 2–6, from the console alone on a default install
// (no SWITCHBOARD_ALLOW_HOST_PERMISSIONS), the real service and Copilot CLI, the scripted model: build a
// team in the editor, start the lead with delegation and a tool that waits for a person, approve it,
// watch the run it started, read the answer, export the audit. Elements are found as a person reads them.

test.use({ hostPermissions: false });

const nav = (page: Page) => page.getByRole('navigation', { name: 'Main' });

async function createAgent(page: Page, agent: { name: string; description: string; prompt: string; subAgents?: string[] }) {
  await nav(page).getByRole('link', { name: 'Agents' }).click();
  await page.getByRole('link', { name: 'New agent' }).click();
  await page.getByLabel('Name', { exact: true }).fill(agent.name);
  await page.getByLabel('Description', { exact: true }).fill(agent.description);
  await page.getByLabel('System message', { exact: true }).fill(agent.prompt);
  const subAgents = page.getByRole('group', { name: /^Sub-agents \(/ });
  for (const name of agent.subAgents ?? []) await subAgents.getByRole('checkbox', { name: new RegExp(name) }).check();
  await page.getByRole('button', { name: 'Create agent' }).click();
  await expect(page.getByRole('navigation', { name: 'Breadcrumb' })).toContainText(agent.name.toLowerCase().replace(/ /g, '-'));
}

test('the README flow: a team built, started with delegation and an asked tool, approved, its run watched and the audit exported', async ({
  page,
  api,
  model,
}) => {
  test.setTimeout(180_000);
  const s = Date.now().toString(36);
  model.setScript([
    { name: 'the reviewer reviews', systemIncludes: `REVIEWER_${s}`, answer: { text: `REVIEW_DONE_${s}: main.ts looks good` } },
    {
      name: 'the lead delegates with agent_run',
      systemIncludes: `LEAD_${s}`,
      lastIsToolResult: false,
      answer: { toolCalls: [{ name: 'agent_run', arguments: { agent_id: 'code-reviewer', prompt: 'Review main.ts.' } }] },
    },
    { name: 'the lead reports', systemIncludes: `LEAD_${s}`, lastIsToolResult: true, answer: { text: `LEAD_DONE_${s}: the reviewer approved main.ts` } },
  ]);

  // Step 2: a specialist and a lead whose sub-agent it is, in the editor.
  await page.goto('/agents');
  await createAgent(page, { name: 'Code Reviewer', description: 'Reviews code changes', prompt: `REVIEWER_${s} You review code.` });
  await createAgent(page, {
    name: 'Engineering Lead',
    description: 'Leads the team',
    prompt: `LEAD_${s} Delegate reviews.`,
    subAgents: ['Code Reviewer'],
  });
  // The lead's session defaults: delegation automatic, on because it has a sub-agent.
  await expect(page.getByLabel('Its sessions may start runs')).toHaveValue('auto');
  await expect(page.getByLabel('Its sessions may start runs')).toContainText('Automatic: yes, it has sub-agents');

  // Step 3: Start session on the lead's card; delegation is on, host kinds are closed by the operator.
  await nav(page).getByRole('link', { name: 'Agents' }).click();
  await page.getByRole('article', { name: 'Engineering Lead' }).getByRole('link', { name: 'Start session' }).click();
  const settings = page.getByRole('complementary', { name: 'Session settings' });
  await expect(settings.getByRole('checkbox', { name: /start runs of library agents/ })).toBeChecked();
  const shell = settings.getByRole('combobox', { name: /^shell/ });
  await expect(shell).toBeDisabled();
  await expect(settings).toContainText('Set SWITCHBOARD_ALLOW_HOST_PERMISSIONS=true to allow it');
  await expect(settings.getByRole('combobox', { name: /^read/ })).toBeEnabled();
  // Step 5's policy, chosen here: the lead's agent_run waits for a person.
  const askTools = settings.getByLabel('Ask a person before these tools');
  await askTools.fill('agent_run');
  await askTools.press('Enter');
  await expect(settings.getByRole('list', { name: 'Ask a person before these tools: chosen' })).toContainText('agent_run');
  await settings.getByLabel('Max runs').fill('3');
  await page.getByRole('textbox', { name: 'Message' }).fill('Please get main.ts reviewed.');
  await page.getByRole('button', { name: 'Send' }).click();
  // The first session starts the Copilot CLI: longer than a click takes.
  await expect(page).toHaveURL(/\/sessions\/[0-9a-f-]{36}$/, { timeout: 60_000 });
  const sessionId = page.url().split('/').pop()!;

  // Step 5: the delegation waits in Approvals, counted on every page; approved there.
  await expect(nav(page).getByTestId('approvals-count')).toHaveText('1 pending', { timeout: 60_000 });
  await nav(page)
    .getByRole('link', { name: /Approvals/ })
    .click();
  const request = page.getByRole('article').filter({ hasText: 'agent_run' });
  await expect(request).toBeVisible();
  await request.getByRole('button', { name: 'Approve', exact: true }).click();
  await expect(request).toHaveCount(0);

  // Step 4: Runs lists the run the lead started; its page shows the reviewer's answer.
  await nav(page).getByRole('link', { name: 'Runs' }).click();
  let runId = '';
  await expect
    .poll(async () => {
      const { runs } = await api.call<{ runs: Array<{ runId: string }> }>('GET', '/api/runs?agentId=code-reviewer');
      runId = runs[0]?.runId ?? '';
      return runId;
    })
    .not.toBe('');
  await page.locator(`a[href="/runs/${runId}"]`).first().click();
  await expect(page.getByRole('main')).toContainText(`REVIEW_DONE_${s}`, { timeout: 60_000 });
  await expect(page.getByRole('main')).toContainText('completed');

  // Step 3's chat: the lead's answer after its run.
  await page.goto(`/sessions/${sessionId}`);
  await expect(page.getByRole('list', { name: 'Conversation' }).getByLabel('Assistant').last()).toContainText(`LEAD_DONE_${s}`, { timeout: 60_000 });

  // What the session was created with, as the service recorded it.
  const session = await api.call<{ delegation: boolean; permissionPolicy: { askTools?: string[] }; config: { budget?: unknown } }>(
    'GET',
    `/api/sessions/${sessionId}`,
  );
  expect(session.delegation).toBe(true);
  expect(session.permissionPolicy.askTools).toEqual(['agent_run']);
  expect(session.config.budget).toEqual({ max_runs: 3 });

  // Step 6: Audit exports the decision on agent_run (the audit log is written a moment after the fact).
  await nav(page).getByRole('link', { name: 'Audit' }).click();
  await expect
    .poll(
      async () => {
        const downloading = page.waitForEvent('download');
        await page.getByRole('button', { name: 'Export JSONL' }).click();
        const text = fs.readFileSync(await (await downloading).path(), 'utf8');
        return text.split('\n').some((line) => line.includes('agent_run') && line.includes('approv') && line.includes(sessionId));
      },
      { timeout: 30_000 },
    )
    .toBe(true);
});
