import { expect, test, TEST_API_TOKEN } from './fixtures';

// GET /graphql in a browser is GraphiQL, bundled with the console (no CDN): it sends the tab's token and
// passes the service's CSRF and request-origin rules. The service runs with SWITCHBOARD_API_TOKEN.
test.use({ apiToken: TEST_API_TOKEN });

test('the GraphQL IDE at /graphql runs a query with the token and shows the answer', async ({ page, api, baseURL }) => {
  // GraphiQL's editor (Monaco, three workers) is a heavy page on a shared 2-core machine.
  test.slow();
  await api.createAgent({ id: 'ide-reviewer', name: 'IDE Reviewer', description: 'Reviews pull requests', system_message: { content: 'Review.' } });
  const blocked: string[] = [];
  page.on('console', (message) => {
    if (/Content.Security.Policy|Refused to/i.test(message.text())) blocked.push(message.text());
  });
  // Bundled, no CDN: every request the page makes goes to the service.
  const foreign: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.protocol !== 'data:' && url.protocol !== 'blob:' && url.origin !== new URL(baseURL as string).origin) foreign.push(request.url());
  });

  await page.goto('/graphql');
  await expect(page).toHaveTitle('Switchboard GraphQL IDE');
  await page
    .getByRole('form', { name: 'API token' })
    .getByLabel(/API token/)
    .fill(TEST_API_TOKEN);
  await page.getByRole('button', { name: 'Use it' }).click();
  await expect(page.getByText('Sending the API token of this tab.')).toBeVisible();

  const answered = page.waitForResponse(
    (r) => r.url().endsWith('/graphql') && r.request().method() === 'POST' && r.request().postData()?.includes('Library') === true,
  );
  await page.getByRole('button', { name: /Execute query/ }).click();
  const response = await answered;
  expect(response.status()).toBe(200);
  expect(response.request().headers().authorization).toBe(`Bearer ${TEST_API_TOKEN}`);
  expect(await response.json()).toMatchObject({ data: { agents: [{ id: 'ide-reviewer', name: 'IDE Reviewer' }] } });
  // The answer is shown in the result pane.
  await expect(page.locator('.graphiql-response')).toContainText('"ide-reviewer"');

  expect(blocked).toEqual([]);
  expect(foreign).toEqual([]);
});
