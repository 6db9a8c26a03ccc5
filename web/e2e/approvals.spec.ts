import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { ASKED_SHELL_SESSION, askedShellCommandScript, expectNoSeriousA11yViolations, inBothThemes, screenshot } from './support';

// The approvals inbox (issue 14) on the real service and the real Copilot CLI: a session's policy asks a
// person for `shell`, so a sub-agent's command waits; the chat and the run page say so and link to the
// inbox, where a person approves (the command runs) or denies with a reason (the model reads it).

const nav = (page: Page) => page.getByRole('navigation', { name: 'Main' });
const card = (page: Page, text: string) => page.locator('.approval-card').filter({ hasText: text });

test('a sub-agent’s shell command waits in the inbox, counted on every page, and runs once approved', async ({ page, api, model }) => {
  const s = Date.now().toString(36);
  model.setScript(askedShellCommandScript(`echo APPROVED_${s}_$((40+2))`, 'print a number'));
  const { sessionId } = await api.call<{ sessionId: string }>('POST', '/api/sessions', ASKED_SHELL_SESSION);
  await page.goto(`/sessions/${sessionId}`);
  await page.getByRole('textbox', { name: 'Message' }).fill('Ask the operator to run it.');
  await page.getByRole('button', { name: 'Send' }).click();

  // The chat says what waits, and the count beside Approvals follows it live.
  const waiting = page.getByRole('list', { name: 'Waiting for approval' });
  // The tool's name (bash) is added when the CLI's record of the call came before its permission request: its order varies.
  const asked = new RegExp(`shell( · bash)?: echo APPROVED_${s}_\\$\\(\\(40\\+2\\)\\)`);
  // issue 39: in the same words as the inbox (one requestSentence), the raw request one click away.
  await expect(waiting.getByText(`operator wants to run \`echo APPROVED_${s}_$((40+2))\``)).toBeVisible();
  await expect(waiting).toContainText('asked by main → operator');
  const raw = waiting.locator('details');
  await expect(raw.getByText(asked)).toBeHidden();
  await raw.getByText('Details').click();
  await expect(raw.getByText(asked)).toBeVisible();
  await expect(nav(page).getByTestId('approvals-count')).toHaveText('1 pending');
  expect(model.requests.some((r) => r.allText.includes(`APPROVED_${s}_42`))).toBe(false);

  await waiting.getByRole('link', { name: 'Decide in Approvals' }).click();
  await expect(page).toHaveURL(/\/approvals#approval-/);
  const pending = card(page, `APPROVED_${s}`);
  await expect(pending).toContainText('Asked by main → operator');
  // issue 39: what it would do, in words; the raw request is under Details.
  await expect(pending.getByRole('heading')).toHaveText(`operator wants to run \`echo APPROVED_${s}_$((40+2))\``);
  await inBothThemes(page, () => expectNoSeriousA11yViolations(page));
  await screenshot(page, 'approvals');

  await pending.getByRole('button', { name: 'Approve' }).click();
  await expect(pending).toHaveCount(0);
  await expect(nav(page).getByTestId('approvals-count')).toHaveCount(0);
  await page.getByRole('button', { name: 'Decided' }).click();
  const row = page.getByRole('row').filter({ hasText: `APPROVED_${s}` });
  await expect(row).toContainText('approved');
  // issue 27: who decided, by name (no credential configured: the local admin), and from where.
  await expect(row).toContainText('local admin (console)');

  // Approved, the command ran: its output is what the sub-agent read, and the session finished.
  await page.goto(`/sessions/${sessionId}`);
  await expect(page.getByRole('list', { name: 'Conversation' }).getByLabel('Assistant')).toHaveText('PARENT_DONE');
  await expect(waiting).toHaveCount(0);
  expect(model.requests.some((r) => r.who === 'child' && r.lastIsToolResult && JSON.stringify(r.lastMessage).includes(`APPROVED_${s}_42`))).toBe(true);
  await api.call('DELETE', `/api/sessions/${sessionId}`);
});

test('a run waiting for approval is flagged in its tree; denied from the inbox, the run’s model reads the reason', async ({ page, api, model }) => {
  const s = Date.now().toString(36);
  const operator = `operator-${s}`;
  model.setScript([
    {
      name: 'the run runs a command',
      systemIncludes: `OPERATOR_${s}`,
      lastIsToolResult: false,
      answer: { toolCalls: [{ name: 'bash', arguments: { command: `echo DENIED_${s}`, description: 'print' } }] },
    },
    { name: 'the run reports', systemIncludes: `OPERATOR_${s}`, lastIsToolResult: true, answer: { text: 'RUN_REPORTED' } },
    {
      name: 'the lead delegates with agent_run',
      messagesInclude: `SCENARIO_${s}`,
      lastIsToolResult: false,
      answer: { toolCalls: [{ name: 'agent_run', arguments: { agent_id: operator, prompt: 'Run the command.' } }] },
    },
    { name: 'the lead wraps up', messagesInclude: `SCENARIO_${s}`, lastIsToolResult: true, answer: { text: 'LEAD_DONE' } },
  ]);
  await api.createAgent({ id: operator, name: 'Operator', system_message: { content: `OPERATOR_${s} You run commands.` } });
  const { sessionId } = await api.call<{ sessionId: string }>('POST', '/api/sessions', { delegation: true, permissionPolicy: { askKinds: ['shell'] } });
  // The lead delegates with agent_run: the run's session takes its owner's policy, so its command waits too.
  await api.call('POST', `/api/sessions/${sessionId}/messages`, { prompt: `SCENARIO_${s} have the operator run it` });
  let runId = '';
  await expect
    .poll(async () => {
      const { runs } = await api.call<{ runs: Array<{ runId: string }> }>('GET', `/api/runs?agentId=${operator}`);
      runId = runs[0]?.runId ?? '';
      return runId;
    })
    .not.toBe('');

  await page.goto(`/runs/${runId}`);
  const flag = page.locator(`.run-tree tbody tr[data-run="${runId}"]`).getByRole('link', { name: 'waiting for approval' });
  await expect(flag).toBeVisible();
  await expect(page.getByRole('list', { name: 'Waiting for approval' })).toContainText(`asked by`);
  await flag.click();

  const pending = card(page, `DENIED_${s}`);
  await pending.getByLabel('Reason').fill(`NOT_ON_FRIDAYS_${s}`);
  await pending.getByRole('button', { name: 'Deny' }).click();
  await expect(pending).toHaveCount(0);

  await page.goto(`/runs/${runId}`);
  await expect(page.getByTestId('run-status')).toHaveText('completed');
  expect(model.requests.some((r) => r.lastIsToolResult && JSON.stringify(r.lastMessage).includes(`NOT_ON_FRIDAYS_${s}`))).toBe(true);
  expect(model.requests.some((r) => r.allText.includes(`DENIED_${s}\\n`))).toBe(false);
  await api.call('DELETE', `/api/sessions/${sessionId}`);
});

test('a delegation waiting for approval reads as a sentence under its chat’s title, and the decided list says who decided', async ({
  page,
  api,
  model,
}) => {
  const s = Date.now().toString(36);
  const task = `Review pull request ${s} for style`;
  model.setScript([
    {
      name: 'the lead delegates the review',
      systemIncludes: `LEAD_${s}`,
      lastIsToolResult: false,
      answer: { toolCalls: [{ name: 'agent_run', arguments: { agent_id: `code-reviewer-${s}`, prompt: task } }] },
    },
    { name: 'the lead reads the refusal', systemIncludes: `LEAD_${s}`, lastIsToolResult: true, answer: { text: 'LEAD_DONE' } },
  ]);
  await api.createAgent({ id: `code-reviewer-${s}`, name: 'Code Reviewer', description: 'Reviews code', system_message: { content: 'You review code.' } });
  await api.createAgent({
    id: `lead-${s}`,
    name: 'Lead',
    system_message: { content: `LEAD_${s} You delegate.` },
    sub_agents: [`code-reviewer-${s}`],
  });
  const { sessionId } = await api.call<{ sessionId: string }>('POST', '/api/sessions', {
    agentId: `lead-${s}`,
    delegation: true,
    permissionPolicy: { askTools: ['agent_run'] },
  });
  await api.call('POST', `/api/sessions/${sessionId}/messages`, { prompt: `Get ${s} reviewed` });
  await expect
    .poll(async () => (await api.call<{ approvals: unknown[] }>('GET', `/api/approvals?status=pending&sessionId=${sessionId}`)).approvals.length)
    .toBe(1);
  const title = (await api.call<{ title: string | null }>('GET', `/api/sessions/${sessionId}`)).title ?? 'Untitled session';

  // issue 39: the chat's waiting list says it as the inbox does, by display names; the raw request under Details.
  await page.goto(`/sessions/${sessionId}`);
  const waiting = page.getByRole('list', { name: 'Waiting for approval' });
  await expect(waiting.getByText(`Lead wants to start Code Reviewer on: ${task}`)).toBeVisible();
  await expect(waiting).toContainText('asked by Lead');
  await expect(waiting.getByText('custom-tool · agent_run')).toBeHidden();

  await page.goto('/approvals');
  // Grouped under the chat's title, a link to the chat; the request says who wants what, by display names.
  const group = page.getByRole('region', { name: `${title} 1 waiting` });
  await expect(group.getByRole('heading', { level: 2 }).getByRole('link', { name: title })).toHaveAttribute('href', `/sessions/${sessionId}`);
  const pending = card(page, task);
  await expect(pending.getByRole('heading', { level: 3 })).toHaveText(`Lead wants to start Code Reviewer on: ${task}`);
  await expect(pending.getByText('custom-tool · agent_run')).toBeHidden();
  // The raw request is one click away.
  const details = pending.locator('details');
  await expect(details.getByText(`"agent_id": "code-reviewer-${s}"`)).toBeHidden();
  await details.getByText('Details').click();
  await expect(details).toContainText('custom-tool · agent_run');
  await expect(details.getByText(`"agent_id": "code-reviewer-${s}"`)).toBeVisible();

  await pending.getByRole('button', { name: 'Deny' }).click();
  await expect(pending).toHaveCount(0);
  await page.getByRole('button', { name: 'Decided' }).click();
  const row = page.getByRole('row').filter({ hasText: task });
  await expect(row.getByRole('cell').first()).toContainText(`Lead wants to start Code Reviewer on: ${task}`);
  await expect(row.getByRole('link', { name: title })).toHaveAttribute('href', `/sessions/${sessionId}`);
  await expect(row).toContainText('local admin (console)');
  await expect(row.getByRole('cell').nth(1)).toHaveText(title);

  // The audit says the same: who decided (by name, from the console) and in which chat; ids one click away.
  // (The audit log is an async projection: the entry is there before the page asks.)
  await expect
    .poll(async () => (await api.call<{ entries: unknown[] }>('GET', `/api/audit?sessionId=${sessionId}&eventType=approval.decided`)).entries.length)
    .toBe(1);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Audit' }).click();
  await page.getByLabel('Session').fill(sessionId);
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await page.getByLabel('Kind').selectOption('approval');
  const entry = page.getByRole('table', { name: 'Audit log entries' }).locator('tbody tr').filter({ hasText: 'approval.decided' });
  await expect(entry.getByRole('cell').nth(3)).toHaveText('local admin (console)');
  await expect(entry.getByRole('cell').nth(4).getByRole('link', { name: title })).toHaveAttribute('href', `/sessions/${sessionId}`);
  await entry.getByRole('button', { name: /^Show entry/ }).click();
  await expect(page.getByLabel(/^Entry \d+$/)).toContainText(`"sessionId": "${sessionId}"`);
  await api.call('DELETE', `/api/sessions/${sessionId}`);
});
