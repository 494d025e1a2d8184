/**
 * Token counting benchmark (not a test): the linear-time `countO200kTokens` against
 * gpt-tokenizer's `countTokens` on one-character runs, and its difference from the exact count on
 * real messages from `../shared/data` (SWE-agent, Claude Code, LoCoMo). Run:
 *
 * ```sh
 * npx tsc -p bench/tsconfig.token-count.json && node dist/bench-token-count/bench/token-count.js [--full]
 * ```
 *
 * Without `--full` the exact counter is timed up to 100 KB and extrapolated (quadratic fit) for
 * 1 MB and 5 MB, which would take minutes to hours. Prints JSON on stdout.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { countO200kTokens } from '../src/tokens/token-counter.js';

const DATA = process.env.CONTEXT_LEDGER_DATA ?? join(process.cwd(), '..', '..', 'shared', 'data');
const FULL = process.argv.includes('--full');
const PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

function seconds(run: () => number): { seconds: number; tokens: number } {
  const start = performance.now();
  const tokens = run();
  return { seconds: Number(((performance.now() - start) / 1000).toFixed(3)), tokens };
}

function runs(): unknown[] {
  countTokens('warm up: the first call loads the rank table', PLAIN_TEXT);
  const sizes = [10_000, 100_000, 1_000_000, 5_000_000];
  const rows: unknown[] = [];
  let fit: number | undefined;
  for (const size of sizes) {
    const text = 'x'.repeat(size);
    const after = seconds(() => countO200kTokens(text));
    let before: { seconds: number; tokens: number } | { extrapolatedSeconds: number } | undefined;
    if (size <= 100_000 || FULL) {
      const measured = seconds(() => countTokens(text, PLAIN_TEXT));
      fit = measured.seconds / size ** 2;
      before = measured;
    } else if (fit !== undefined) {
      before = { extrapolatedSeconds: Math.round(fit * size ** 2) };
    }
    const exact = before && 'tokens' in before ? before.tokens : undefined;
    const difference = exact === undefined ? undefined : Number(((after.tokens - exact) / exact).toFixed(5));
    rows.push({ run: `'x' × ${size}`, before, after, relativeDifference: difference });
    process.stderr.write(`runs: ${size} done\n`);
  }
  return rows;
}

function blockText(content: unknown): string[] {
  if (typeof content === 'string') return [content];
  if (!Array.isArray(content)) return [];
  return content.flatMap((block: { text?: unknown; content?: unknown; input?: unknown }) =>
    typeof block?.text === 'string'
      ? [block.text]
      : block?.content !== undefined
        ? blockText(block.content)
        : block?.input !== undefined
          ? [JSON.stringify(block.input)]
          : [],
  );
}

/** Up to `limit` message texts per data set, evenly spread. */
function realMessages(limit: number): { source: string; text: string }[] {
  const pick = (source: string, texts: string[]) => {
    const step = Math.max(1, Math.floor(texts.length / limit));
    return texts
      .filter((_, index) => index % step === 0)
      .slice(0, limit)
      .map((text) => ({ source, text }));
  };
  const out: { source: string; text: string }[] = [];
  const swe = join(DATA, 'swe-agent', 'mini-swe-agent-deepseek-dev.jsonl');
  if (existsSync(swe)) {
    const texts = readFileSync(swe, 'utf8')
      .split('\n')
      .filter(Boolean)
      .flatMap((line) =>
        (JSON.parse(line) as { messages: { content: unknown }[] }).messages.flatMap((message) =>
          blockText(message.content),
        ),
      );
    out.push(...pick('swe-agent', texts));
  }
  const claude = join(DATA, 'claude-code');
  if (existsSync(claude)) {
    const files = ['258c7280-ae70-4798-800f-63464d01a85d.jsonl', '4d5611e5-241a-462a-8d15-5122611a9569.jsonl']
      .map((name) => join(claude, name))
      .filter(existsSync);
    const texts = files.flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .filter(Boolean)
        .flatMap((line) => blockText((JSON.parse(line) as { message?: { content?: unknown } }).message?.content)),
    );
    out.push(...pick('claude-code', texts));
  }
  const locomo = join(DATA, 'locomo', 'locomo-dev.json');
  if (existsSync(locomo)) {
    const samples = JSON.parse(readFileSync(locomo, 'utf8')) as { conversation: Record<string, unknown> }[];
    const texts = samples.flatMap((sample) =>
      Object.values(sample.conversation).flatMap((turns) =>
        Array.isArray(turns) ? turns.map((turn: { text?: unknown }) => String(turn.text ?? '')) : [],
      ),
    );
    out.push(...pick('locomo', texts));
  }
  return out.filter((message) => message.text.length > 0);
}

function realData(): unknown {
  const messages = realMessages(150);
  let maxRelative = 0;
  let differing = 0;
  let characters = 0;
  let exactSeconds = 0;
  let pieceSeconds = 0;
  for (const { text } of messages) {
    characters += text.length;
    const exact = seconds(() => countTokens(text, PLAIN_TEXT));
    const pieces = seconds(() => countO200kTokens(text));
    exactSeconds += exact.seconds;
    pieceSeconds += pieces.seconds;
    if (pieces.tokens !== exact.tokens) differing += 1;
    maxRelative = Math.max(maxRelative, Math.abs(pieces.tokens - exact.tokens) / Math.max(1, exact.tokens));
  }
  const bySource = Object.fromEntries(
    ['swe-agent', 'claude-code', 'locomo'].map((source) => [
      source,
      messages.filter((message) => message.source === source).length,
    ]),
  );
  return {
    data: DATA,
    messages: messages.length,
    bySource,
    characters,
    differing,
    maxRelativeDifference: maxRelative,
    exactSeconds: Number(exactSeconds.toFixed(3)),
    pieceSeconds: Number(pieceSeconds.toFixed(3)),
  };
}

process.stdout.write(JSON.stringify({ runs: runs(), realData: realData() }, null, 2) + '\n');
