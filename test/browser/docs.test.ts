import { mkdirSync } from 'fs';
import { join, resolve } from 'path';
import { BrowserRun, describeInChromium, openBrowser } from '../support/chromium';

/*
 * Swagger UI at /docs in a real browser: "Try it out" on GET /v1/diagram,
 * as prefilled, draws the SVG answer as a picture (an <img> that loaded)
 * rather than showing its markup as text, under the service's own
 * Content-Security-Policy. A screenshot goes to artefacts/docs/ (git-ignored).
 */

const ARTEFACTS = resolve(__dirname, '../../artefacts/docs');
// Swagger UI is a large bundle; a loaded CI machine may take a while to build the page.
const WAIT = { timeout: 30_000 };

describeInChromium('Swagger UI')('Swagger UI in chromium', () => {
  let run: BrowserRun;

  beforeAll(async () => {
    mkdirSync(ARTEFACTS, { recursive: true });
    run = await openBrowser('docs');
  });
  afterAll(() => run?.close());

  it('shows the SVG answer of GET /v1/diagram as a picture', async () => {
    const { page, base } = run;
    const answer = await page.goto(`${base}/docs/`);
    const csp = answer!.headers()['content-security-policy'];
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-eval');
    expect(csp).toContain("img-src 'self' data:");
    const operation = page.locator('#operations-rules-diagram');
    await operation.locator('.opblock-summary').click(WAIT);
    await operation.locator('.try-out__btn').click(WAIT);
    const diagram = page.waitForResponse((res) => res.url().startsWith(`${base}/v1/diagram?`), WAIT);
    await operation.locator('.execute').click(WAIT);
    const res = await diagram;
    expect(res.status()).toBe(200);
    expect(res.headers()['content-type']).toContain('image/svg+xml');
    const picture = operation.locator('.responses-wrapper .live-responses-table img');
    await picture.waitFor(WAIT);
    // The picture decoded: an <img> of markup the browser could not read has no natural width.
    const loaded = "(() => { const img = document.querySelector('#operations-rules-diagram .live-responses-table img'); return img !== null && img.complete && img.naturalWidth > 0; })()";
    await page.waitForFunction(loaded, undefined, WAIT);
    expect(await picture.getAttribute('src')).toMatch(/^data:image\/svg\+xml/);
    // The markup itself is not shown as the body.
    expect(await operation.locator('.live-responses-table').textContent()).not.toContain('<svg');
    await page.screenshot({ path: join(ARTEFACTS, 'diagram.png'), fullPage: true });
    expect(run.consoleErrors).toEqual([]);
  });
});
