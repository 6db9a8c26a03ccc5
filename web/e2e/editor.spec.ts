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
  await expect(page.getByRole('article', { name: 'Lead' })).toContainText('1 sub-agent problem');
});

test('an agent’s hooks are kept on save, edited in place, and a refused URL is named next to them', async ({ page, api }) => {
  const preToolUse = { type: 'preToolUse', url: 'https://hooks.example.com/pre', failure: 'closed' };
  await api.createAgent({ id: 'guarded', name: 'Guarded', description: 'Works under a hook', system_message: { content: 'Work.' }, hooks: [preToolUse] });
  await page.goto('/agents/guarded');
  const hooks = page.getByRole('group', { name: 'Hooks' });
  await expect(hooks.getByLabel('Hook 1 URL')).toHaveValue(preToolUse.url);
  await expect(hooks.getByLabel('Hook 1 type')).toHaveValue('preToolUse');

  // A save of another field sends the hooks back as they were.
  await page.getByLabel('Description', { exact: true }).fill('Works under a pre-tool-use hook');
  await saveButton(page).click();
  await expect(page.getByRole('status').filter({ hasText: /^Saved/ })).toBeVisible();
  expect((await api.getAgent('guarded')).hooks).toEqual([preToolUse]);

  // A second hook to the cloud metadata address: refused by the outbound guard, named by the hooks.
  await hooks.getByRole('button', { name: '+ Add hook' }).click();
  await hooks.getByLabel('Hook 2 type').selectOption('postToolUse');
  await hooks.getByLabel('Hook 2 URL').fill('http://169.254.169.254/latest/meta-data');
  await saveButton(page).click();
  await expect(hooks).toContainText('refused by the outbound guard');
  expect((await api.getAgent('guarded')).hooks).toEqual([preToolUse]);

  await hooks.getByLabel('Hook 2 URL').fill('https://hooks.example.com/post');
  await hooks.getByLabel('Hook 2 on failure').selectOption('closed');
  await inBothThemes(page, () => expectNoSeriousA11yViolations(page));
  await saveButton(page).click();
  await expect(page.getByRole('status').filter({ hasText: /^Saved/ })).toBeVisible();
  expect((await api.getAgent('guarded')).hooks).toEqual([preToolUse, { type: 'postToolUse', url: 'https://hooks.example.com/post', failure: 'closed' }]);

  await hooks.getByRole('button', { name: 'Remove hook 1' }).click();
  await saveButton(page).click();
  await expect(page.getByRole('status').filter({ hasText: /^Saved/ })).toBeVisible();
  expect((await api.getAgent('guarded')).hooks).toEqual([{ type: 'postToolUse', url: 'https://hooks.example.com/post', failure: 'closed' }]);
});
