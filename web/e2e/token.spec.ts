import type { Page } from '@playwright/test';
import { expect, test, TEST_API_TOKEN } from './fixtures';
import { expectNoSeriousA11yViolations, inBothThemes, screenshot } from './support';

// The service runs with SWITCHBOARD_API_TOKEN: the console asks for it once, keeps it for the tab and
// sends it on HTTP and on the WebSocket; a refused token brings the prompt back with the service's message.
test.use({ apiToken: TEST_API_TOKEN });

const tokenDialog = (page: Page) => page.getByRole('dialog', { name: 'API token' });
/** The library's "Showing N of M agents" line (the page has other status messages, e.g. after an import). */
const resultCount = (page: Page) => page.getByRole('status').filter({ hasText: /^Showing \d+ of \d+ agents$/ });

async function signIn(page: Page, token: string): Promise<void> {
  const dialog = tokenDialog(page);
  await dialog.getByLabel('API token').fill(token);
  await dialog.getByRole('button', { name: 'Sign in' }).click();
}

test('asks for the token, shows the service message for a wrong one, and keeps the right one for the tab', async ({ page, context, api }) => {
  await api.createAgent({ id: 'reviewer', name: 'Reviewer', description: 'Reviews pull requests', system_message: { content: 'Review the diff.' } });

  await page.goto('/');
  await expect(tokenDialog(page)).toBeVisible();
  await expect(page.getByRole('article', { name: 'Reviewer' })).toHaveCount(0);
  await inBothThemes(page, () => expectNoSeriousA11yViolations(page));
  await screenshot(page, 'token-prompt');

  await signIn(page, 'not-the-token-but-long-enough');
  // The prompt comes back (the saved token was refused) with the service's own message.
  await expect(tokenDialog(page)).toContainText('Missing or wrong API token');
  await expect(page.getByRole('article', { name: 'Reviewer' })).toHaveCount(0);

  await signIn(page, TEST_API_TOKEN);
  await expect(tokenDialog(page)).toBeHidden();
  await expect(page.getByRole('heading', { level: 1, name: 'Agents' })).toBeVisible();
  await expect(page.getByRole('article', { name: 'Reviewer' })).toBeVisible();

  // A reload in the same tab keeps the token (sessionStorage): the data loads and nothing asks again.
  const libraryLoaded = page.waitForResponse((r) => r.url().endsWith('/graphql') && r.request().method() === 'POST');
  await page.reload();
  expect((await libraryLoaded).status()).toBe(200);
  await expect(page.getByRole('heading', { level: 1, name: 'Agents' })).toBeVisible();
  await expect(page.getByRole('article', { name: 'Reviewer' })).toBeVisible();
  await expect(tokenDialog(page)).toHaveCount(0);

  // Another tab has its own sessionStorage: it asks again.
  const otherTab = await context.newPage();
  await otherTab.goto('/agents');
  await expect(tokenDialog(otherTab)).toBeVisible();
  await otherTab.close();
});

test('with the token, the library updates live over the WebSocket when the API changes it', async ({ page, api }) => {
  await api.createAgent({ id: 'reviewer', name: 'Reviewer', description: 'Reviews pull requests', system_message: { content: 'Review the diff.' } });
  // Subscriptions the service accepted: sent on a socket after the service acknowledged its connection_init (the token).
  let acceptedSubscriptions = 0;
  page.on('websocket', (socket) => {
    let acknowledged = false;
    socket.on('framereceived', ({ payload }) => (acknowledged ||= String(payload).includes('"connection_ack"')));
    socket.on('framesent', ({ payload }) => {
      if (acknowledged && String(payload).includes('"subscribe"')) acceptedSubscriptions += 1;
    });
  });

  await page.goto('/agents');
  await signIn(page, TEST_API_TOKEN);
  await expect(page.getByRole('article', { name: 'Reviewer' })).toBeVisible();
  await expect.poll(() => acceptedSubscriptions, { message: 'a subscription on a socket the service accepted' }).toBeGreaterThan(0);

  // Created behind the console's back: it appears without a reload.
  await api.createAgent({ id: 'planner', name: 'Planner', description: 'Breaks work down', system_message: { content: 'Plan the work.' } });
  await expect(page.getByRole('article', { name: 'Planner' })).toBeVisible();
  await expect(resultCount(page)).toHaveText('Showing 2 of 2 agents');
  await expect(tokenDialog(page)).toHaveCount(0);
});

// issue 39, console item 4: a browser cannot send the token on a navigation, so /api/docs answered a raw
// 401. The console's API docs page fetches the document and sends each "Try it out" call with the tab's token.
test('API docs open from the console with the token: the operations are listed and Try it out sends the token', async ({ page }) => {
  const blocked: string[] = [];
  page.on('console', (message) => {
    if (/Content.Security.Policy|Refused to/i.test(message.text())) blocked.push(message.text());
  });
  await page.goto('/');
  await signIn(page, TEST_API_TOKEN);
  await expect(page.getByRole('heading', { level: 1, name: 'Agents' })).toBeVisible();

  const documentLoaded = page.waitForResponse((r) => r.url().endsWith('/api/docs-json'));
  await page.getByRole('link', { name: 'API docs' }).click();
  expect((await documentLoaded).status()).toBe(200);
  await expect(page.getByRole('heading', { level: 1, name: 'API docs' })).toBeVisible();
  // Swagger UI lists the operations (each is a button with its method and path).
  const me = page.getByRole('button', { name: /GET \/api\/me\b/ });
  await expect(me).toBeVisible();
  await expect(page.getByRole('button', { name: /POST \/api\/keys\b/ })).toBeVisible();
  await expect(page.getByText('Missing or wrong API token')).toHaveCount(0);

  await me.click();
  await page.getByRole('button', { name: 'Try it out' }).click();
  const called = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/me' && r.request().method() === 'GET');
  await page.getByRole('button', { name: 'Execute' }).click();
  const answer = await called;
  expect(answer.status()).toBe(200);
  expect(answer.request().headers().authorization).toBe(`Bearer ${TEST_API_TOKEN}`);
  await expect(page.locator('.swagger-ui').getByText('"operator"').first()).toBeVisible();

  // The address bar's /api/docs (no header there) leads to the same page, which has the tab's token.
  await page.goto('/api/docs');
  await expect(page).toHaveURL(/\/docs\/api$/);
  await expect(page.getByRole('button', { name: /GET \/api\/me\b/ })).toBeVisible();
  expect(blocked).toEqual([]);
});
