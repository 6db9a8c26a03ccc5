import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { expectNoSeriousA11yViolations, screenshot } from './support';

// Issue 39: on the open local API (no token, no sign-in), the console's maker creates the first key on
// Keys. It closes the open API; the page says so before the click, the key is an admin key, and the
// console signs in with it at once: its maker keeps the console (and the Keys page). The scenario closes
// its service's API for good, so it has a service of its own.
test.use({ apiToken: undefined, ownService: 'first-key' });

const nav = (page: Page) => page.getByRole('navigation', { name: 'Main' });

test('the first key from an open console is an admin key the console signs in with: still admin, the key shown once, anonymous now 401', async ({
  page,
  service,
}) => {
  await page.goto('/keys');
  await expect(page.getByRole('heading', { level: 1, name: 'API keys' })).toBeVisible();
  await expect(page.getByTestId('signed-in-as')).toContainText('local admin');

  // Before the click: what will happen, and the role is admin, not to be changed.
  const note = page.getByRole('note');
  await expect(note).toContainText('Creating the first key closes the open local API');
  await expect(note).toContainText('This first key will be an admin key, and this console will sign in with it');
  const role = page.getByLabel('Role');
  await expect(role).toHaveValue('admin');
  await expect(role).toBeDisabled();
  await expectNoSeriousA11yViolations(page);
  await screenshot(page, 'first-key-warning');

  await page.getByLabel('Name').fill('my laptop');
  await page.getByRole('button', { name: 'Create the first key and sign in with it' }).click();

  // The key, this once, and the console signed in with it: still an admin, Keys still there, no token prompt.
  const shown = page.getByRole('region', { name: 'New key' });
  await expect(shown).toContainText('Key “my laptop” created');
  await expect(shown).toContainText('This console signed in with this admin key');
  const key = await page.getByTestId('new-key').textContent();
  expect(key).toMatch(/^sbk_[A-Za-z0-9_-]{43}$/);
  await expect(page.getByTestId('signed-in-as')).toContainText('my laptop');
  await expect(page.getByTestId('signed-in-as')).toContainText('admin');
  await expect(nav(page).getByRole('link', { name: 'Keys' })).toBeVisible();
  await expect(page.getByRole('dialog', { name: 'API token' })).toHaveCount(0);
  await expect(page.getByRole('row', { name: /my laptop/ })).toContainText('admin');

  // The open door is closed: an anonymous call is refused, the key works.
  expect((await fetch(`${service.url}/api/me`)).status).toBe(401);
  const me = await fetch(`${service.url}/api/me`, { headers: { authorization: `Bearer ${key}` } });
  expect(await me.json()).toMatchObject({ kind: 'key', name: 'my laptop', role: 'admin' });

  // Elsewhere in the console it works as before, with the key: another page loads without a prompt.
  await nav(page).getByRole('link', { name: 'Agents' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Agents' })).toBeVisible();
  await expect(page.getByRole('dialog', { name: 'API token' })).toHaveCount(0);
});
