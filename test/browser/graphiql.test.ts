import { mkdirSync } from 'fs';
import { join, resolve } from 'path';
import { buildIde } from '../../scripts/build/board';
import { BrowserRun, describeInChromium, openBrowser } from '../support/chromium';

/*
 * The GraphQL IDE in a real browser: opening /graphql shows GraphiQL, served
 * by the service itself under its own Content-Security-Policy (no
 * violation, no request to another origin), and running the document it
 * opens with answers the legal plays from /graphql. A screenshot goes to
 * artefacts/graphiql/ (git-ignored) for CI to keep.
 */

const ARTEFACTS = resolve(__dirname, '../../artefacts/graphiql');

describeInChromium('GraphQL IDE')('the GraphQL IDE in chromium', () => {
  let run: BrowserRun;
  const foreign: string[] = [];

  beforeAll(async () => {
    buildIde();
    mkdirSync(ARTEFACTS, { recursive: true });
    run = await openBrowser('graphiql');
    run.page.on('request', (req) => {
      if (!req.url().startsWith(run.base) && !req.url().startsWith('data:')) foreign.push(req.url());
    });
  });
  afterAll(() => run?.close());

  it('opens at /graphql with the CSP intact and runs a query', async () => {
    const { page, base } = run;
    const answer = await page.goto(`${base}/graphql`);
    const csp = answer!.headers()['content-security-policy'];
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).not.toContain('unsafe-eval');
    await page.waitForSelector('.graphiql-container');
    expect(await page.title()).toContain('GraphiQL');
    // The editor opens with the document of the page; running it queries /graphql.
    const query = page.waitForResponse((res) => res.url() === `${base}/graphql` && res.request().method() === 'POST');
    await page.click('.graphiql-execute-button');
    expect((await query).status()).toBe(200);
    await page.locator('.result-window', { hasText: '"count": 16' }).waitFor();
    expect(await page.locator('.result-window').textContent()).toContain('24/21 6/5');
    await page.screenshot({ path: join(ARTEFACTS, 'graphiql.png') });
    expect(run.consoleErrors).toEqual([]);
    expect(foreign).toEqual([]);
  });
});
