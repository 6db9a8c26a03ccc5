import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { expectNoSeriousA11yViolations, inBothThemes, screenshot } from './support';

// FR-1 / FR-6 in the editor: the sub-agent selector, ineligible picks flagged with the service's reason
// and Save blocked until they are gone; problems next to their fields; a stale version never overwrites.

const subAgents = (page: Page) => page.getByRole('group', { name: /^Sub-agents \(/ });
const saveButton = (page: Page) => page.getByRole('button', { name: 'Save', exact: true });

test.beforeEach(async ({ api }) => {
  await api.createAgent({
    id: 'reviewer',
    name: 'Code Reviewer',
    icon: '🔍',
    description: 'Reviews pull requests',
    system_message: { content: 'Review.' },
  });
  await api.createAgent({ id: 'tester', name: 'Test Writer', icon: '🧪', description: 'Writes tests', system_message: { content: 'Test.' } });
  await api.createAgent({
    id: 'lead',
    name: 'Lead',
    icon: '🧭',
    description: 'Leads',
    system_message: { content: 'Lead.' },
    sub_agents: ['reviewer', 'tester'],
  });
});

test('a sub-agent made ineligible behind the editor is flagged with its reason and blocks Save until removed', async ({ page, api }) => {
  await page.goto('/agents/lead');
  await expect(subAgents(page).getByRole('checkbox', { checked: true })).toHaveCount(2);
  await expect(saveButton(page)).toBeEnabled();
  // The editor's header panel: the lead itself cannot be a sub-agent, and says why.
  await expect(page.getByRole('complementary', { name: 'Summary' })).toContainText('has sub-agents of its own (reviewer, tester)');

  await api.updateAgent('reviewer', { tools: { custom: ['deploy'], builtin: [], excluded_builtin: [] } });

  const reviewer = subAgents(page).getByRole('checkbox', { name: /Code Reviewer/ });
  await expect(reviewer).toHaveAttribute('aria-invalid', 'true');
  await expect(subAgents(page)).toContainText('reviewer has custom tools (deploy)');
  await expect(saveButton(page)).toBeDisabled();
  await expect(page.getByRole('alert').filter({ hasText: 'Save is blocked' })).toContainText('sub-agent reviewer cannot be used');
  await inBothThemes(page, () => expectNoSeriousA11yViolations(page));
  await screenshot(page, 'editor-ineligible');

  // Unpicked, an ineligible agent leaves the list (it is not offered): a click, not uncheck(), which would
  // wait for the box to read unchecked.
  await reviewer.click();
  await expect(saveButton(page)).toBeEnabled();
  await saveButton(page).click();
  const saved = page.getByRole('status').filter({ hasText: /^Saved/ });
  await expect(saved).toBeVisible();
  await expect(saved).toHaveText(`Saved (version ${(await api.getAgent('lead')).version}).`);
  expect((await api.getAgent('lead')).sub_agents).toEqual(['tester']);
  // No longer picked, the ineligible agent is not offered either.
  await expect(subAgents(page).getByRole('checkbox', { name: /Code Reviewer/ })).toHaveCount(0);
});

test('a save after someone else saved is refused with an offer to reload, never a silent overwrite', async ({ page, api }) => {
  await page.goto('/agents/lead');
  await expect(page.getByLabel('Description', { exact: true })).toHaveValue('Leads');
  await page.getByLabel('Description', { exact: true }).fill('My edit');

  // Versions are stream positions: an id deleted and created again (earlier tests) goes on counting.
  const theirs = await api.updateAgent('lead', { description: 'Their edit' });
  await expect(page.getByRole('alert').filter({ hasText: 'Someone else saved this agent' })).toContainText(`now version ${theirs.version}`);

  await saveButton(page).click();
  const conflict = page.getByRole('alert').filter({ hasText: 'Not saved: someone else saved this agent first' });
  await expect(conflict).toBeVisible();
  expect((await api.getAgent('lead')).description).toBe('Their edit');
  await conflict.getByRole('button', { name: 'Reload' }).click();
  await expect(page.getByLabel('Description', { exact: true })).toHaveValue('Their edit');
  await expect(conflict).toHaveCount(0);
});

test("the service's problems are shown next to their fields", async ({ page }) => {
  await page.goto('/agents/new');
  await page.getByLabel('Name', { exact: true }).fill('Bad Id Agent');
  await page.getByLabel('Id', { exact: true }).fill('Not A Slug');
  await page.getByRole('button', { name: 'Create agent' }).click();
  const id = page.getByLabel('Id', { exact: true });
  await expect(id).toHaveAttribute('aria-invalid', 'true');
  await expect(id).toHaveAccessibleDescription(/must be a slug/);
  await expect(page.getByRole('alert').filter({ hasText: 'fix the fields marked below' })).toBeVisible();

  await id.fill('good-id');
  await page.getByRole('button', { name: 'Create agent' }).click();
  await expect(page).toHaveURL(/\/agents\/good-id$/);
});

test('delete asks first, naming the teams that include the agent', async ({ page, api }) => {
  await page.goto('/agents/reviewer');
  await page.getByRole('button', { name: 'Delete' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete Code Reviewer?' });
  await expect(dialog).toContainText('It is a sub-agent in the team of lead');
  await dialog.getByRole('button', { name: 'Keep it' }).click();
  await expect(dialog).toHaveCount(0);
  expect((await api.getAgent('reviewer')).id).toBe('reviewer');

  await page.getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await expect(page).toHaveURL(/\/agents$/);
  // The lead now names a sub-agent that no longer exists: its card shows the problem.
  await expect(page.getByRole('article', { name: 'Lead' })).toContainText('⚠ 1 sub-agent problem');
});
