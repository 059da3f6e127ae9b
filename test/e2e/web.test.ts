/**
 * The web page in real headless Chromium against the real stack: enter the key, upload a
 * clip for analysis, watch progress, see the results; then the same flow with the status
 * answer replaced by a complete hand-made result, to check the full view and its seeking.
 * Screenshots: test/.tmp/web-results.png, test/.tmp/web-results-full.png.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Hono } from 'hono';
import { docsRoutes } from '../../src/api/docs.js';
import { webRoutes } from '../../src/web/index.js';
import { generateFixtures } from '../support/fixtures.js';
import { ROOT } from '../support/services.js';
import { sampleResult } from './support/sample-result.js';
import { startPageFront, startStack, type Stack } from './support/stack.js';

const CHROMIUM = '/usr/bin/chromium';
const KEY = 'e2e-web-key';
const SHOTS = join(ROOT, 'test/.tmp');
let stack: Stack;
let front: { origin: string; close(): Promise<void> } | null = null;
let origin: string;
let profile = '';
let context: BrowserContext;
const cspViolations: string[] = [];

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error('Chromium is missing: apt-get install -y chromium');
  generateFixtures();
  stack = await startStack({ port: 19087, containerPort: 19088, keys: KEY });
  const home = await fetch(`${stack.base}/`)
    .then((r) => r.text())
    .catch(() => '');
  if (home.includes('id="job-form"')) origin = stack.base;
  else {
    // createApp does not mount the page yet: serve it (and the docs) from a same-origin front.
    const pages = new Hono().route('/', webRoutes).route('/', docsRoutes);
    front = await startPageFront(19089, stack.base, (req) => Promise.resolve(pages.request(req)), [
      '/',
      '/docs',
      '/openapi.json',
    ]);
    origin = front.origin;
  }
  profile = mkdtempSync(join(tmpdir(), 'chromium-profile-'));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1200, height: 900 },
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}, 240_000);

afterAll(async () => {
  await context?.close();
  await front?.close();
  await stack?.stop();
  if (profile) rmSync(profile, { recursive: true, force: true });
});

async function openPage(): Promise<Page> {
  const page = await context.newPage();
  page.on('console', (m) => {
    if (/Content.Security.Policy/i.test(m.text())) cspViolations.push(m.text());
  });
  await page.goto(origin);
  return page;
}

async function submitAnalysis(page: Page) {
  await page.getByLabel('API key', { exact: true }).fill(KEY);
  await page.getByRole('button', { name: 'Save key' }).click();
  await expect.poll(() => page.evaluate('localStorage.getItem("video-api-key")')).toBe(KEY);
  await page.setInputFiles('#file', join(generateFixtures(), 'tone-3s.mp4'));
  await expect.poll(() => page.textContent('#file-name')).toContain('tone-3s.mp4');
  await page.getByRole('button', { name: 'Start' }).click();
}

describe('web page', () => {
  it('should upload a clip for analysis, show progress and the results view', async () => {
    const page = await openPage();
    const statusTexts = new Set<string>();
    const watcher = setInterval(
      () =>
        page
          .textContent('#status-text')
          .then((t) => t && statusTexts.add(t))
          .catch(() => {}),
      100,
    );
    await submitAnalysis(page);
    await page.waitForSelector('#results-panel:not([hidden])', { timeout: 120_000 });
    clearInterval(watcher);
    expect(await page.inputValue('#api-key')).toBe(KEY);
    expect(await page.$eval('#upload-progress', (e: any) => e.value)).toBe(100);
    expect(await page.$eval('#job-progress', (e: any) => e.value)).toBe(100);
    expect([...statusTexts].some((t) => /Job vid_/.test(t))).toBe(true);
    expect(await page.textContent('#status-text')).toMatch(/completed/);
    expect(await page.textContent('#card-duration')).toMatch(/0:03/);
    expect(await page.$eval('#player', (v: any) => v.src)).toMatch(/^blob:/);
    expect(await page.evaluate('document.activeElement && document.activeElement.id')).toBe('h-results');
    await page.screenshot({ path: join(SHOTS, 'web-results.png'), fullPage: true });
    // The key survives a reload.
    await page.reload();
    expect(await page.inputValue('#api-key')).toBe(KEY);
    await page.close();
  });

  it("should list the key's jobs and open a completed one's result from the history", async () => {
    // The key is saved by the test before: the history loads with the page.
    const page = await openPage();
    await page.waitForSelector('#history-panel:not([hidden])', { timeout: 10_000 });
    const first = page.locator('#history li').first();
    await expect.poll(() => first.textContent()).toMatch(/^vid_\S{22}analysis · completed · /);
    await first.getByRole('button', { name: /Open the result of vid_/ }).click();
    await page.waitForSelector('#results-panel:not([hidden])', { timeout: 10_000 });
    expect(await page.textContent('#card-duration')).toMatch(/0:03/);
    // No local file for an earlier job: the player stays empty rather than showing another video.
    expect(await page.$eval('#player', (v: any) => v.getAttribute('src'))).toBeNull();
    await page.close();
  });

  it('should render a complete result: cards, timeline, transcript; clicking seeks and moves the playhead', async () => {
    const page = await openPage();
    const full = sampleResult();
    await page.route('**/api/status/**', (route) =>
      route.fulfill({
        contentType: 'application/json',
        body: JSON.stringify({
          status: 'completed',
          progress: 100,
          download_url: null,
          result: full,
          error_message: null,
        }),
      }),
    );
    await submitAnalysis(page);
    await page.waitForSelector('#timeline', { timeout: 60_000 });
    for (const id of ['card-pace', 'card-fillers', 'card-pauses', 'card-gaze', 'card-gestures'])
      expect(await page.isVisible(`#${id}`), id).toBe(true);
    expect(await page.locator('#transcript mark').count()).toBe(full.filler_words.count);
    expect(await page.locator('#transcript .pause-mark.long').count()).toBe(1);
    await page.waitForFunction('document.getElementById("player").readyState >= 1');
    const word = page.locator('#transcript .w', { hasText: 'today' });
    const t = Number(await word.getAttribute('data-t'));
    await word.click();
    await expect.poll(() => page.$eval('#player', (v: any) => v.currentTime)).toBeCloseTo(t, 1);
    const x = Number(await page.getAttribute('#playhead', 'x1'));
    expect(x).toBeGreaterThan(110);
    // Clicking the timeline seeks too.
    const box = (await page.locator('#timeline').boundingBox())!;
    await page.mouse.click(box.x + box.width * 0.2, box.y + box.height / 2);
    await expect.poll(() => page.$eval('#player', (v: any) => v.currentTime)).toBeGreaterThan(0);
    await page.screenshot({ path: join(SHOTS, 'web-results-full.png'), fullPage: true });
    await page.close();
  });

  it('should process a clip and show the download link and what the render did', async () => {
    const page = await openPage();
    await page.getByLabel('API key', { exact: true }).fill(KEY);
    await page.getByRole('button', { name: 'Save key' }).click();
    await page.check('input[name="mode"][value="process"]');
    await page.uncheck('#blur');
    await page.setInputFiles('#file', join(generateFixtures(), 'tone-3s.mp4'));
    await page.getByRole('button', { name: 'Start' }).click();
    await page.waitForSelector('#processing-report', { timeout: 120_000 });
    expect(await page.getAttribute('#download a', 'href')).toMatch(
      /\/files\/outputs\/vid_[\w-]+\/video\.mp4\?expires=\d+&token=/,
    );
    const report = await page.textContent('#processing-report');
    expect(report).toContain('Applied: none');
    expect(report).toMatch(/Output: \d+×\d+, 3\.\d\d s \(source\)/);
    await page.close();
  });

  it('should show API errors with code and request id, accessibly', async () => {
    const page = await openPage();
    await page.getByLabel('API key', { exact: true }).fill('wrong-key');
    await page.setInputFiles('#file', join(generateFixtures(), 'tone-3s.mp4'));
    await page.getByRole('button', { name: 'Start' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor({ timeout: 30_000 });
    expect(await alert.textContent()).toMatch(/unauthorized \(HTTP 401\).*request_id req_/s);
    await page.close();
  });

  it('should render the API reference at /docs', async () => {
    const page = await openPage();
    await page.goto(`${origin}/docs`);
    expect(await page.title()).toMatch(/reference/);
    expect(await page.locator('#op-processVideo').isVisible()).toBe(true);
    await page.setViewportSize({ width: 1200, height: 1400 });
    await page.locator('#op-processVideo').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SHOTS, 'docs.png') });
    await page.close();
  });

  it('should not trip the Content-Security-Policy', () => {
    expect(cspViolations).toEqual([]);
  });
});
