// Into a channel's portal in Chromium, as its staff get there: an entry link asked for
// through the API, opened, and its "Entrar no portal" button pressed.
import type { BrowserHandle, ContextOptions } from './browser.ts';
import type { TestService } from './service.ts';
import { rememberSecret } from './secrets.ts';

export async function signInToPortal(
  browser: BrowserHandle,
  service: TestService,
  auth: Record<string, string>,
  options: ContextOptions = {},
) {
  const { page, watch } = await browser.newPage(options);
  const created = await service.inject({ method: 'POST', url: '/v1/portal/sessoes', headers: auth });
  const { url } = created.json<{ url: string }>();
  rememberSecret(url, url.split('/').pop());
  await page.goto(url);
  await Promise.all([
    page.waitForURL(`${service.baseUrl}/portal`),
    page.getByRole('button', { name: 'Entrar no portal' }).click(),
  ]);
  return { page, watch, expectClean: () => watch.expectClean() };
}
