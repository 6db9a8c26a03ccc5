import { expect, test } from './fixtures';
import { expectNoSeriousA11yViolations, inBothThemes, screenshot } from './support';

// Schedules (issue 30) on the real service, the real Copilot CLI and the scripted model: a schedule made
// from an agent's card with the next firings previewed as it is typed, "Run now", the firing followed
// to its run page (which names the schedule), and the list with its last outcome and the on/off switch.

test('schedules an agent from its card with a live preview, runs it now and follows the firing to its run', async ({ page, api, model }) => {
  test.setTimeout(180_000);
  const s = Date.now().toString(36);
  const agentName = `Reporter ${s}`;
  model.setScript([{ name: 'the reporter reports', systemIncludes: `REPORTER_${s}`, answer: { text: `MORNING_REPORT_${s}` } }]);
  const agent = await api.createAgent({
    id: `reporter-${s}`,
    name: agentName,
    description: 'Writes the morning report',
    system_message: { mode: 'append', content: `REPORTER_${s} you write reports.` },
  });

  // "Schedule…" on the agent's card opens the editor with that agent.
  await page.goto('/agents');
  await page.getByRole('article', { name: agentName }).getByRole('link', { name: 'Schedule…' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'New schedule' })).toBeVisible();
  await expect(page.getByLabel('Agent', { exact: true })).toHaveValue(agent.id);

  // The preview follows the timing as it is typed: five firings in the chosen zone, or the service's problems.
  await page.getByLabel('Name (optional)').fill(`Morning report ${s}`);
  await page.getByLabel('Prompt', { exact: true }).fill('Write the morning report.');
  await page.getByLabel('Time zone').fill('Europe/Berlin');
  await page.getByLabel('Cron expression').fill('30 6 * * 1-5');
  const preview = page.getByRole('list', { name: 'Next firings' });
  await expect(preview.getByRole('listitem')).toHaveCount(5);
  for (const item of await preview.getByRole('listitem').all()) await expect(item).toHaveText(/^(Mon|Tue|Wed|Thu|Fri), .* 06:30 \(Europe\/Berlin\)$/);
  await page.getByLabel('Cron expression').fill('61 6 * * *');
  await expect(page.getByRole('list', { name: 'Problems with the timing' })).toContainText('cron "61 6 * * *" is not valid');
  await expect(preview).toHaveCount(0);
  await page.getByLabel('Cron expression').fill('30 6 * * 1-5');
  await expect(preview.getByRole('listitem')).toHaveCount(5);
  await page.getByLabel('Max runs').fill('3');
  await inBothThemes(page, () => expectNoSeriousA11yViolations(page));

  await page.getByRole('button', { name: 'Create schedule' }).click();
  await expect(page.getByRole('heading', { level: 1, name: `Morning report ${s}` })).toBeVisible();
  await expect(page.getByText('cron 30 6 * * 1-5 (Europe/Berlin)')).toBeVisible();
  await expect(page.getByText('Budget: at most 3 runs')).toBeVisible();
  await expect(page.getByRole('list', { name: 'Next firings' }).getByRole('listitem')).toHaveCount(5);
  await expect(page.getByText('It has not fired yet.')).toBeVisible();

  // Run now: the firing appears in the history by itself (the subscription), and its run completes.
  await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
  await page.getByRole('button', { name: 'Run now' }).click();
  const manual = page.locator('.firing-table tbody tr', { hasText: 'run now' });
  await expect(manual).toHaveCount(1);
  await expect(manual.locator('.badge')).toHaveText('completed', { timeout: 60_000 });
  expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
  await inBothThemes(page, () => expectNoSeriousA11yViolations(page));
  await screenshot(page, 'schedules');

  // The firing's run page says which schedule started it, and links back.
  await manual.getByRole('link', { name: /^Open run of the firing due / }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`${agent.id}: Write the morning report.`);
  await expect(page.getByTestId('run-status')).toHaveText('completed');
  const startedBy = page.getByTestId('scheduled-by');
  await expect(startedBy).toHaveText(`Started by schedule Morning report ${s}`);
  await startedBy.getByRole('link').click();
  await expect(page.getByRole('heading', { level: 1, name: `Morning report ${s}` })).toBeVisible();

  // Edit opens the saved schedule (its budget, its zone) and saves the change over the version it loaded.
  await page.getByRole('link', { name: 'Edit', exact: true }).click();
  await expect(page.getByLabel('Cron expression')).toHaveValue('30 6 * * 1-5');
  await expect(page.getByLabel('Time zone')).toHaveValue('Europe/Berlin');
  await expect(page.getByLabel('Max runs')).toHaveValue('3');
  await page.getByLabel('Cron expression').fill('0 7 * * 1-5');
  await expect(page.getByRole('list', { name: 'Next firings' }).getByRole('listitem').first()).toContainText('07:00 (Europe/Berlin)');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText('cron 0 7 * * 1-5 (Europe/Berlin)')).toBeVisible();

  // The list: when it fires next, its last outcome, and the switch that turns it off (no next firing then).
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Schedules' }).click();
  const row = page.locator('.schedule-table tbody tr', { hasText: `Morning report ${s}` });
  await expect(row).toContainText(agentName);
  await expect(row).toContainText('cron 0 7 * * 1-5 (Europe/Berlin)');
  await expect(row).toContainText('07:00 (Europe/Berlin)');
  await expect(row.locator('.badge')).toHaveText('completed');
  const enabled = row.getByRole('switch', { name: `Morning report ${s} enabled` });
  await expect(enabled).toBeChecked();
  await enabled.click();
  await expect(enabled).not.toBeChecked();
  await expect(row.locator('td').nth(2)).toHaveText('off');
  await inBothThemes(page, () => expectNoSeriousA11yViolations(page));
});

test('a run under a scheduled run names the schedule that started its team, with a link back', async ({ page, api, model }) => {
  test.setTimeout(120_000);
  const s = Date.now().toString(36);
  let letLeadAnswer!: () => void;
  const leadMayAnswer = new Promise<void>((resolve) => (letLeadAnswer = resolve));
  model.setScript([
    { name: 'the lead waits for the test', systemIncludes: `LEAD_${s}`, until: () => leadMayAnswer, answer: { text: `LEAD_DONE_${s}` } },
    { name: 'the helper answers', systemIncludes: `HELPER_${s}`, answer: { text: `HELPER_DONE_${s}` } },
  ]);
  const lead = await api.createAgent({
    id: `lead-${s}`,
    name: `Lead ${s}`,
    description: 'Leads',
    system_message: { mode: 'append', content: `LEAD_${s} you lead.` },
  });
  const helper = await api.createAgent({
    id: `helper-${s}`,
    name: `Helper ${s}`,
    description: 'Helps',
    system_message: { mode: 'append', content: `HELPER_${s} you help.` },
  });
  const schedule = await api.call<{ id: string }>('POST', '/api/schedules', {
    name: `Nightly ${s}`,
    agentId: lead.id,
    prompt: 'Lead the night.',
    cron: '0 3 * * *',
  });
  const firing = await api.call<{ runId: string }>('POST', `/api/schedules/${schedule.id}/run`);
  await model.waitForRequests((r) => r.systemText.includes(`LEAD_${s}`), 1, 60_000);
  // While the scheduled lead still runs, a run under it (as the API may start one).
  const child = await api.call<{ runId: string }>('POST', '/api/runs', {
    agentId: helper.id,
    prompt: 'Help.',
    background: true,
    parentRunId: firing.runId,
  });

  await page.goto(`/runs/${child.runId}`);
  const startedBy = page.getByTestId('scheduled-by');
  await expect(startedBy).toHaveText(`This team was started by schedule Nightly ${s}`);
  await expect(page.getByText('Started through the API')).toHaveCount(0);
  letLeadAnswer();
  await startedBy.getByRole('link').click();
  await expect(page.getByRole('heading', { level: 1, name: `Nightly ${s}` })).toBeVisible();
});
