/**
 * Diagnosis of what the window spends its tokens on, per cut of the quality benchmark (not a
 * benchmark: no targets). For each cut and budget it prints how the rendered tokens split into
 * the parts of the context (system prompt, ledger frame lines, summary, pinned and quoted
 * constraints, handle index, masked stubs, recent turns by kind) and, for every future-needed
 * handle (yardstick of `future-needed.ts`) missing from the window, where it is:
 * - `spilled`: an extracted handle of the session holds it, but it is ranked below the index budget
 *   (in the checkpoint chain, or not kept by the latest record);
 * - `masked`: it is inside a masked tool result still in the window (one recall away);
 * - `not extracted`: it is in the compacted history but no stored handle's text contains it.
 *
 * Run: `npm run bench --silent -- --help` builds it; then
 * `node .bench-build/bench/quality/window-diagnosis.js claude-code 4000 [--missing] [--text] [--only ID] [--data DIR]`;
 * window options to try go in the environment as JSON: `WINDOW_OPTIONS='{"handleBudgetTokens":1600}'`, ranking weights
 * the same way: `RANKING='{"specified":1}'`.
 */
import { createO200kCounter } from '../../src/index.js';
import type { RenderedContext, TokenCounter, TranscriptMessage } from '../../src/index.js';
import type { LedgerStore } from '../../src/stores/store.js';
import type { LedgerSession } from '../../src/session/session.js';
import { findDataSet, loadTranscripts } from '../data-sets.js';
import { cutsOf } from './cut-quality.js';
import { replayToCut } from './public-replay.js';
import { futureNeeded } from './future-needed.js';

/** Tokens of each part of a rendered context. */
export type Split = Record<string, number>;

/** Where a missing future-needed handle is. */
export type MissingPlace = 'spilled' | 'masked' | 'not extracted';

/** The diagnosis of one cut at one budget. */
export interface CutDiagnosis {
  readonly id: string;
  readonly budget: number;
  readonly tokens: number;
  readonly split: Split;
  readonly needed: number;
  readonly present: number;
  readonly missing: Record<MissingPlace, string[]>;
  /** Of the present ones, how many are in each part. */
  readonly presentIn: Split;
}

function add(split: Split, key: string, tokens: number): void {
  split[key] = (split[key] ?? 0) + tokens;
}

/** The section a ledger-block line opens, if it is a section header. */
function sectionHeader(line: string): string | undefined {
  if (line.startsWith('Summary: ')) return 'summary';
  if (line.startsWith('Pinned constraints')) return 'pinned';
  if (line.startsWith('Constraints quoted')) return 'quoted';
  if (line.startsWith('Handle index')) return 'index';
  if (/^(\[context-ledger\]|Earlier turns|History from|Known gaps|To get an original|\d+ more handles)/.test(line))
    return 'frame';
  return undefined;
}

/** Split a rendered context's tokens into its parts, and the text of each part. */
export function splitRendered(rendered: RenderedContext, counter: TokenCounter): { split: Split; texts: Split & {} } {
  const split: Split = {};
  const texts: Record<string, string> = {};
  const addText = (key: string, text: string) => {
    texts[key] = `${texts[key] ?? ''}\n${text}`;
  };
  for (const message of rendered.messages) {
    if (message.source === 'system-prompt') {
      add(split, 'system prompt', counter.count(message.content) + 4);
      continue;
    }
    if (message.source === 'ledger') {
      let section = 'frame';
      for (const line of message.content.split('\n')) {
        section = sectionHeader(line) ?? section;
        add(split, `ledger ${section}`, counter.count(line) + 1);
        addText(`ledger ${section}`, line);
      }
      continue;
    }
    const kind = message.masked
      ? 'masked stub'
      : message.toolCall
        ? 'recent tool call'
        : message.toolCallId !== undefined
          ? 'recent tool result'
          : `recent ${message.role}`;
    add(split, kind, counter.count(message.content) + 5);
    addText(kind, message.content);
  }
  return { split, texts: texts as unknown as Split };
}

/** Where each missing handle is, by the session's records and store. */
async function placeMissing(
  missing: readonly string[],
  session: LedgerSession,
  store: LedgerStore,
  rendered: RenderedContext,
): Promise<Record<MissingPlace, string[]>> {
  const places: Record<MissingPlace, string[]> = { spilled: [], masked: [], 'not extracted': [] };
  const stored = await store.handles(session.id);
  const storedTexts = stored.map((handle) => handle.text);
  const maskedIds = rendered.messages
    .filter((message) => message.masked)
    .map((message) => message.spanId)
    .filter((id): id is string => id !== undefined);
  const maskedSpans = maskedIds.length > 0 ? await store.spans(session.id, maskedIds) : [];
  for (const text of missing) {
    if (maskedSpans.some((span) => span.text.includes(text))) places.masked.push(text);
    else if (storedTexts.some((handle) => handle.includes(text))) places.spilled.push(text);
    else places['not extracted'].push(text);
  }
  return places;
}

/** Diagnose one cut at one budget. */
export async function diagnoseCut(
  cut: { id: string; messages: readonly TranscriptMessage[]; at: number },
  budget: number,
  counter: TokenCounter,
): Promise<CutDiagnosis & { text: string }> {
  const { session, store, rendered } = await replayToCut(cut.id, cut.messages.slice(0, cut.at), budget, counter, {
    session: {
      window: JSON.parse(process.env.WINDOW_OPTIONS ?? '{}') as Record<string, unknown>,
      ...(process.env.RANKING ? { ranking: JSON.parse(process.env.RANKING) as Record<string, unknown> } : {}),
    },
  });
  const needed = futureNeeded(cut.messages, cut.at);
  const { split, texts } = splitRendered(rendered, counter);
  const present = needed.filter((text) => rendered.text.includes(text));
  const presentIn: Split = {};
  for (const text of present) {
    const part = Object.entries(texts).find(([, partText]) => String(partText).includes(text))?.[0] ?? 'across parts';
    add(presentIn, part, 1);
  }
  const missing = needed.filter((text) => !rendered.text.includes(text));
  return {
    id: cut.id,
    budget,
    tokens: rendered.tokens,
    split,
    needed: needed.length,
    present: present.length,
    missing: await placeMissing(missing, session, store, rendered),
    presentIn,
    text: rendered.text,
  };
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const name = (args[0] ?? 'claude-code') as 'claude-code' | 'swe-agent';
  const budget = Number(args[1] ?? 4000);
  const showMissing = args.includes('--missing');
  const dataIndex = args.indexOf('--data');
  const only = args.indexOf('--only');
  const dataDir = dataIndex >= 0 ? (args[dataIndex + 1] ?? '') : '/work/shared/data';
  let cuts = cutsOf(name, await loadTranscripts(await findDataSet(dataDir, name)));
  if (only >= 0) cuts = cuts.filter((cut) => cut.id.includes(args[only + 1] ?? ''));
  const counter = createO200kCounter();
  const total: Split = {};
  const totalIn: Split = {};
  const places: Record<MissingPlace, number> = { spilled: 0, masked: 0, 'not extracted': 0 };
  let needed = 0;
  let present = 0;
  for (const cut of cuts) {
    const diagnosis = await diagnoseCut(cut, budget, counter);
    needed += diagnosis.needed;
    present += diagnosis.present;
    for (const [key, value] of Object.entries(diagnosis.split)) add(total, key, value);
    for (const [key, value] of Object.entries(diagnosis.presentIn)) add(totalIn, key, value);
    for (const place of Object.keys(places) as MissingPlace[]) places[place] += diagnosis.missing[place].length;
    const line = Object.entries(diagnosis.split)
      .map(([key, value]) => `${key} ${value}`)
      .join(', ');
    console.log(
      `${cut.id} @${budget}: ${diagnosis.present}/${diagnosis.needed} present, ${diagnosis.tokens} tokens: ${line}`,
    );
    if (showMissing)
      for (const place of Object.keys(places) as MissingPlace[])
        console.log(`  missing, ${place}: ${diagnosis.missing[place].join(' | ')}`);
    if (args.includes('--text')) console.log(diagnosis.text);
  }
  console.log(`\nALL ${name} @${budget}: ${present}/${needed} present (${(present / Math.max(1, needed)).toFixed(3)})`);
  console.log(
    `tokens by part (mean per cut): ${Object.entries(total)
      .map(([key, value]) => `${key} ${Math.round(value / Math.max(1, cuts.length))}`)
      .join(', ')}`,
  );
  console.log(
    `present handles by part: ${Object.entries(totalIn)
      .map(([key, value]) => `${key} ${value}`)
      .join(', ')}`,
  );
  console.log(
    `missing: ${Object.entries(places)
      .map(([key, value]) => `${key} ${value}`)
      .join(', ')}`,
  );
}

if (process.argv[1]?.endsWith('window-diagnosis.js')) await main();
