import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TranscriptMessage } from '../../src/ingest/messages.js';
import { createO200kCounter } from '../../src/tokens/token-counter.js';
import { createBenchContext } from '../../bench/bench-context.js';
import type { BenchResult } from '../../bench/bench-result.js';
import { parseBenchArguments } from '../../bench/cli-args.js';
import { ARMS, measureCuts } from '../../bench/quality/cut-quality.js';
import { runTurnQualityBench } from '../../bench/quality/turn-quality-bench.js';
import type { TurnQualityRow } from '../../bench/quality/turn-quality-bench.js';
import { runPromptCacheBench } from '../../bench/real/prompt-cache-bench.js';
import type { CacheRun } from '../../bench/real/prompt-cache-bench.js';
import { replayLedgerTurns } from '../../bench/real/turn-replay.js';
import { BENCHMARKS } from '../../bench/registry.js';
import { renderReport } from '../../bench/results-markdown.js';
import { checkWindowFits, parseWindowOption, windowAt, withWindowOptions } from '../../bench/window-options.js';

const counter = createO200kCounter();

/**
 * An agent loop of `turns` tool calls, each result about 120 tokens (well over a 4,000-token window) naming a module
 * the agent comes back to ten turns later: a window that keeps fewer recent turns has fewer of them in view.
 */
function agentMessages(turns: number): TranscriptMessage[] {
  const messages: TranscriptMessage[] = [
    { role: 'system', content: 'You solve programming tasks in a shell.' },
    { role: 'user', content: 'Fix the date parser in src/dates/parse.py; tests live in tests/test_parse.py.' },
  ];
  for (let turn = 0; turn < turns; turn++) {
    const back = turn >= 10 ? ` Back to srv/app/module_${turn - 10}/handler.py.` : '';
    messages.push({
      role: 'assistant',
      content: `Step ${turn}: look at part ${turn}.${back}\n\`\`\`bash\nsed -n ${turn}p src/dates/parse.py\n\`\`\``,
    });
    messages.push({
      role: 'user',
      content: [
        `srv/app/module_${turn}/handler.py`,
        ...Array.from(
          { length: 5 },
          (_, line) =>
            `line ${turn}.${line}: value_${turn}_${line} = parse_field(raw, index=${turn * 10 + line}, strict=True)`,
        ),
      ].join('\n'),
    });
  }
  messages.push({ role: 'assistant', content: 'Done: the parser handles every field.' });
  return messages;
}

describe('--window parsing', () => {
  it('reads one object for every budget, or one per budget', () => {
    const all = parseWindowOption('{ "compactAt": 1, "targetFill": 0.8 }');
    expect(all).toEqual({ text: '{"compactAt":1,"targetFill":0.8}', all: { compactAt: 1, targetFill: 0.8 } });
    expect(windowAt(all, 4000)).toEqual({ compactAt: 1, targetFill: 0.8, maxTokens: 4000 });
    const perBudget = parseWindowOption('{"8000":{"targetFill":0.8},"4000":{"compactAt":0.95}}');
    expect(windowAt(perBudget, 8000)).toEqual({ targetFill: 0.8, maxTokens: 8000 });
    expect(windowAt(perBudget, 4000)).toEqual({ compactAt: 0.95, maxTokens: 4000 });
    expect(windowAt(perBudget, 32000)).toEqual({ maxTokens: 32000 });
    expect(windowAt(undefined, 8000)).toEqual({ maxTokens: 8000 });
  });

  it('names the flag and the problem for bad JSON, unknown or mistyped options and invalid values', () => {
    expect(() => parseWindowOption('{compactAt:1}')).toThrow(/^--window: not valid JSON/);
    expect(() => parseWindowOption('[0.8]')).toThrow(/^--window: expected a JSON object/);
    expect(() => parseWindowOption('{"targetFil":0.8}')).toThrow(
      /^--window: unknown window option "targetFil"; known: compactAt, targetFill/,
    );
    expect(() => parseWindowOption('{"maxTokens":4000}')).toThrow(/^--window: maxTokens is the budget being measured/);
    expect(() => parseWindowOption('{"targetFill":"0.8"}')).toThrow(
      /^--window: targetFill must be a number \(got "0.8"\)/,
    );
    expect(() => parseWindowOption('{"maskToolResults":1}')).toThrow(/maskToolResults must be a boolean/);
    expect(() => parseWindowOption('{"compactAt":0.9,"targetFill":0.95}')).toThrow(
      /^--window: at maxTokens 8000: targetFill must be in \(0, compactAt 0.9\] \(got 0.95\)/,
    );
    expect(() => parseWindowOption('{"8000":{"compactAt":1.5}}')).toThrow(
      /^--window budget 8000: at maxTokens 8000: compactAt must be in \(0, 1\]/,
    );
    expect(() => parseWindowOption('{"8000":0.8}')).toThrow(
      /^--window budget 8000: expected an object of window options/,
    );
    expect(() => parseWindowOption('{"8000":{},"targetFill":0.8}')).toThrow(
      /^--window: mixes budgets \(8000\) with options \(targetFill\)/,
    );
  });

  it('checks the options at every budget of the selected benchmarks before any runs', () => {
    // 3,900 handle tokens fit 8,000 but not 4,000, which quality-turns also measures.
    const wide = parseWindowOption('{"handleBudgetTokens":3900}');
    expect(() => checkWindowFits(wide, BENCHMARKS, ['prompt-cache'])).not.toThrow();
    expect(() => checkWindowFits(wide, BENCHMARKS, ['quality-turns'])).toThrow(
      /^--window: at maxTokens 4000: the fixed parts/,
    );
    expect(() =>
      checkWindowFits(parseWindowOption('{"16000":{}}'), BENCHMARKS, ['prompt-cache', 'quality-turns']),
    ).toThrow(
      /^--window: budget 16000 is measured by none of the benchmarks selected \(prompt-cache, quality-turns measure 4000, 8000, 32000, 200000\)/,
    );
    expect(() => checkWindowFits(wide, BENCHMARKS, ['speed-count'])).toThrow(
      /^--window applies to none of the benchmarks selected \(speed-count\); it applies to prompt-cache, quality-claude-code, quality-swe-agent, quality-turns$/,
    );
  });

  it('needs --out, keeps README.md and the recorded report, and writes the report next to the results', () => {
    expect(() => parseBenchArguments(['prompt-cache', '--window', '{"targetFill":0.8}'], '/work/x')).toThrow(
      /^--window needs --out DIR/,
    );
    expect(() => parseBenchArguments(['--quick', '--window', '{"targetFill":0.8}'], '/work/x')).toThrow(
      /--window needs --out/,
    );
    expect(() => parseBenchArguments(['--window', '{"x":1}', '--out', 'o'], '/work/x')).toThrow(
      /unknown window option "x"/,
    );
    const args = parseBenchArguments(['prompt-cache', '--window', '{"targetFill":0.8}', '--out', '/tmp/w'], '/work/x');
    expect(args).toMatchObject({ outDir: '/tmp/w', reportFile: '/tmp/w/RESULTS.md', readmeFile: undefined });
    expect(args.window?.all).toEqual({ targetFill: 0.8 });
    expect(parseBenchArguments(['--window', '{}', '--out', 'o', '--report', 'r.md'], '/work/x').reportFile).toBe(
      '/work/x/r.md',
    );
  });

  it('marks a result and its report section with the options', () => {
    const result: BenchResult = {
      name: 'prompt-cache',
      title: 'T',
      date: '2026-01-01T00:00:00Z',
      quick: true,
      machine: { cpu: 'c', cores: 2, memoryGiB: 1, os: 'linux', node: 'v20' },
      notes: ['Data: here.'],
      tables: [],
      targets: [],
      lead: { title: 'Lead', columns: ['prefix share'], rows: [[0.8]] },
    };
    const marked = withWindowOptions(result, parseWindowOption('{"compactAt":1,"targetFill":0.8}'));
    expect(marked.window).toBe('{"compactAt":1,"targetFill":0.8}');
    expect(marked.notes.at(-1)).toMatch(/^window options: \{"compactAt":1,"targetFill":0.8\} \(--window/);
    const report = renderReport([marked]);
    expect(report).toContain('- window options: {"compactAt":1,"targetFill":0.8}');
    expect(report).toContain('_window options: {"compactAt":1,"targetFill":0.8}');
    expect(report).toContain('(`prompt-cache`, --quick, --window)');
    expect(report).toContain('| --quick --window |');
  });
});

describe('--window reaches the context-ledger arm', () => {
  const messages = agentMessages(80);

  it('turn by turn: a lower targetFill leaves more headroom, so fewer compactions', async () => {
    const records = async (json?: string) =>
      (
        await replayLedgerTurns(
          's',
          messages,
          4000,
          counter,
          () => undefined,
          undefined,
          json ? parseWindowOption(json) : undefined,
        )
      ).recordCount();
    const [defaults, tight, roomy] = [
      await records(),
      await records('{"compactAt":1,"targetFill":0.95}'),
      await records('{"compactAt":1,"targetFill":0.5}'),
    ];
    expect(roomy).toBeGreaterThan(0);
    expect(roomy).toBeLessThan(defaults);
    expect(tight).toBeGreaterThan(roomy);
  });

  it('at a cut: the context holds about targetFill of the budget after a step', async () => {
    const cut = { id: 'c', messages, at: messages.length - 1, ownSummary: undefined };
    const ledgerTokens = async (json?: string) =>
      (await measureCuts([cut], 4000, counter, () => undefined, json ? parseWindowOption(json) : undefined)).arms.get(
        ARMS.ledger,
      )?.tokens ?? 0;
    const [defaults, low] = [await ledgerTokens(), await ledgerTokens('{"compactAt":0.6,"targetFill":0.4}')];
    expect(low).toBeLessThan(0.6 * 4000);
    expect(defaults).toBeGreaterThan(0.6 * 4000);
  });

  describe('through the benchmarks, on a one-trajectory SWE-agent data set', () => {
    let dataDir = '';
    beforeAll(async () => {
      dataDir = await mkdtemp(join(tmpdir(), 'bench-window-'));
      await mkdir(join(dataDir, 'swe-agent'));
      // Long enough to compact at 8,000 tokens.
      const trajectory = {
        instance_id: 'demo__parser-1',
        resolved: true,
        exit_status: 'Submitted',
        submission: '',
        messages: agentMessages(160),
      };
      await writeFile(join(dataDir, 'swe-agent', 'demo.jsonl'), `${JSON.stringify(trajectory)}\n`);
    });
    afterAll(async () => {
      await rm(dataDir, { recursive: true, force: true });
    });
    const context = (json?: string) =>
      createBenchContext({
        dataDir,
        tempDir: dataDir,
        quick: true,
        window: json ? parseWindowOption(json) : undefined,
        log: () => undefined,
      });

    it('prompt-cache: the ledger compacts less often at 8,000 with targetFill 0.5', async () => {
      const compactions = async (json?: string) => {
        const runs = ((await runPromptCacheBench(context(json))).data as { runs: CacheRun[] }).runs;
        return runs.find((run) => run.window === 8000 && run.arm === 'context-ledger')?.compactions ?? null;
      };
      const [defaults, roomy] = [await compactions(), await compactions('{"8000":{"targetFill":0.5}}')];
      expect(roomy).toBeGreaterThan(0);
      expect(roomy).toBeLessThan(defaults ?? 0);
    });

    it('quality-turns: the fixed cuts and every turn both see the options', async () => {
      const rows = async (json?: string) =>
        ((await runTurnQualityBench(context(json))).data as TurnQualityRow[]).find(
          (row) => row.budget === 4000 && row.arm === ARMS.ledger,
        );
      // A window that keeps almost nothing of the transcript after each step measures differently at the cuts and over
      // the turns: both measurements replay with the options. (Which way they move is not this test's business: every
      // tool output of this trajectory is one same-shaped path, the listing rows the ranking puts last.)
      const [defaults, starved] = [
        await rows(),
        await rows('{"compactAt":0.5,"targetFill":0.3,"summaryBudgetTokens":50,"handleBudgetTokens":50}'),
      ];
      expect(defaults?.atCuts.needed).toBeGreaterThan(0);
      expect(starved?.atCuts).not.toEqual(defaults?.atCuts);
      expect(starved?.overTurns).not.toEqual(defaults?.overTurns);
    });
  });
});
