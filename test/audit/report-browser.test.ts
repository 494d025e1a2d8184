/**
 * The HTML audit report as a person sees it: Debian's Chromium (never a downloaded browser)
 * opens the file from disk; the numbers shown must be the `--json` numbers, no request may
 * leave `file://`, and transcript text must render as text.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { chromium } from 'playwright-core';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditDocument } from '../../src/audit/types.js';
import { CLI, FIXTURE, REAL_FILES as REAL_ABSOLUTE } from './paths.js';

const run = promisify(execFile);
const CHROMIUM = '/usr/bin/chromium';
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const REAL_FILES = REAL_ABSOLUTE.map((file) => relative(process.cwd(), file));
/**
 * The README's picture is rewritten only on request (`npm run readme:screenshot`, which sets this variable); a
 * plain test run writes its screenshot to the temp directory, so `npm test` leaves tracked files as they were.
 */
const UPDATE_README_PICTURE = process.env.CONTEXT_LEDGER_UPDATE_SCREENSHOT === '1';
const README_PICTURE = join(process.cwd(), 'bench/results/audit-report.png');
function screenshotPath(): string {
  return UPDATE_README_PICTURE ? README_PICTURE : join(directory, 'audit-report.png');
}
const HAVE_CHROMIUM = existsSync(CHROMIUM);
/** In CI a missing Chromium is a failure (.ci/run installs it); elsewhere the suite is skipped with a reason. */
const RUN = HAVE_CHROMIUM || Boolean(process.env.CI);

let directory = '';
let context: BrowserContext | undefined;
const external: string[] = [];

/** Run the CLI once for both outputs, so the HTML and the JSON come from the same audit. */
async function audit(files: string[], name: string): Promise<{ html: string; document: AuditDocument }> {
  const html = join(directory, `${name}.html`);
  const { stdout } = await run('node', [CLI, 'audit', ...files, '--json', '--html', html, '--quiet'], {
    maxBuffer: 64 * 1024 * 1024,
  });
  return { html, document: JSON.parse(stdout) as AuditDocument };
}

async function open(html: string): Promise<{ page: Page; dialogs: string[] }> {
  if (!context) throw new Error('browser not started');
  const page = await context.newPage();
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await page.goto(pathToFileURL(html).href);
  return { page, dialogs };
}

async function number(page: Page, selector: string): Promise<number> {
  const text = (await page.locator(selector).first().textContent()) ?? '';
  return Number(text.trim());
}

/** Every number the report shows, checked against the JSON document. */
async function expectNumbersMatch(page: Page, document: AuditDocument): Promise<void> {
  let sessionNumber = 0;
  for (const file of document.files) {
    for (const session of file.sessions) {
      sessionNumber++;
      const root = `#session-${sessionNumber}`;
      expect(await page.locator(root).getAttribute('data-session-id')).toBe(session.sessionId);
      expect(await number(page, `${root} [data-testid="spans"]`)).toBe(session.spans);
      expect(await number(page, `${root} [data-testid="gap-count"]`)).toBe(session.gaps.length);
      expect(await page.locator(`${root} [data-testid="generation"]`).count()).toBe(session.generations.length);
      for (const [index, compaction] of session.compactions.entries()) {
        const at = `#s${sessionNumber}-c${index}`;
        const keptByAgent = compaction.futureNeeded.filter((handle) => handle.keptByAgent).length;
        const shown = {
          futureNeeded: await number(page, `${at} [data-testid="future-needed"]`),
          agentKept: await number(page, `${at} [data-testid="agent-kept"]`),
          ledgerInWindow: await number(page, `${at} [data-testid="ledger-in-window"]`),
          ledgerReachable: await number(page, `${at} [data-testid="ledger-reachable"]`),
          agentTokens: await number(page, `${at} [data-testid="agent-tokens"]`),
          ledgerTokens: await number(page, `${at} [data-testid="ledger-tokens"]`),
          userConstraints: await number(page, `${at} [data-testid="user-constraints"]`),
          constraintsKept: await number(page, `${at} [data-testid="ledger-constraints-kept"]`),
          lost: await number(page, `${at} [data-testid="lost-count"]`),
          lostRows: await page.locator(`${at} [data-testid="lost-handle"]`).count(),
        };
        expect(shown).toEqual({
          futureNeeded: compaction.futureNeeded.length,
          agentKept: keptByAgent,
          ledgerInWindow: compaction.ledger.futureNeededInWindow,
          ledgerReachable: compaction.ledger.futureNeededReachable,
          agentTokens: compaction.agentSummaryTokens,
          ledgerTokens: compaction.ledger.tokens,
          userConstraints: compaction.userConstraints,
          constraintsKept: compaction.ledger.constraintsKept,
          lost: compaction.futureNeeded.length - keptByAgent,
          lostRows: compaction.futureNeeded.length - keptByAgent,
        });
        expect(
          await page.locator(`${at} svg[data-testid="s${sessionNumber}-c${index}-chart"] rect`).count(),
        ).toBeGreaterThan(0);
      }
    }
  }
}

describe.skipIf(!RUN)(
  `HTML audit report in Chromium${RUN ? '' : ' (skipped: /usr/bin/chromium is missing; apt-get install -y chromium)'}`,
  () => {
    beforeAll(async () => {
      expect(HAVE_CHROMIUM, `${CHROMIUM} is missing: install it with apt-get install -y chromium (.ci/run does)`).toBe(
        true,
      );
      directory = await mkdtemp(join(tmpdir(), 'cl-audit-browser-'));
      context = await chromium.launchPersistentContext(join(directory, 'user-data'), {
        executablePath: CHROMIUM,
        headless: true,
        args: ARGS,
        viewport: { width: 1366, height: 900 },
      });
      await context.route('**/*', async (route) => {
        const url = route.request().url();
        if (url.startsWith('file:')) return route.continue();
        external.push(url);
        return route.abort();
      });
      context.on('request', (request) => {
        if (!request.url().startsWith('file:')) external.push(request.url());
      });
    }, 120_000);

    afterAll(async () => {
      await context?.close();
      if (directory) await rm(directory, { recursive: true, force: true });
    });

    it('shows the fixture numbers of --json, renders untrusted text as text, and links lost handles to their spans', async () => {
      const { html, document } = await audit([FIXTURE], 'fixture');
      const { page, dialogs } = await open(html);
      await expectNumbersMatch(page, document);
      expect(await page.locator('script').count()).toBe(0);
      expect(await page.locator('#span-1-3 pre').textContent()).toContain('<script>alert("station")</script>');
      await page.locator('a[href="#span-1-3"]').first().click();
      expect(new URL(page.url()).hash).toBe('#span-1-3');
      const box = await page.locator('#span-1-3').boundingBox();
      expect(box?.y).toBeGreaterThanOrEqual(0);
      expect(box?.y).toBeLessThan(900);
      expect(dialogs).toEqual([]);
      expect(external).toEqual([]);
      if (REAL_FILES.length === 0) {
        await page.goto(pathToFileURL(html).href);
        await page.screenshot({ path: screenshotPath() });
        expect((await readFile(screenshotPath())).subarray(1, 4).toString()).toBe('PNG');
      }
      await page.close();
      expect((await readFile(html, 'utf8')).length).toBeGreaterThan(1000);
    }, 120_000);

    it.skipIf(REAL_FILES.length === 0)(
      `shows the real Claude Code sessions' numbers of --json and saves the screenshot${REAL_FILES.length === 0 ? ' (skipped: ../shared/data/claude-code is absent)' : ''}`,
      async () => {
        const { html, document } = await audit(REAL_FILES, 'real');
        const { page, dialogs } = await open(html);
        await expectNumbersMatch(page, document);
        expect(await page.locator('script').count()).toBe(0);
        expect(dialogs).toEqual([]);
        expect(external).toEqual([]);
        await page.screenshot({ path: screenshotPath() });
        expect((await readFile(screenshotPath())).subarray(1, 4).toString()).toBe('PNG');
        await page.close();
      },
      300_000,
    );
  },
);
