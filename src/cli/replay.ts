import { access, constants, stat } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import { InvalidInputError } from '../errors.js';
import type { ImportFormat } from '../importers/events.js';
import { whereOf } from '../importers/message-check.js';
import { readEvents } from '../importers/registry.js';
import { createLedger } from '../ledger.js';
import type { TranscriptMessage } from '../messages.js';
import type { LedgerSession } from '../session.js';
import type { WindowConfig } from '../types.js';
import type { RenderedContext } from '../window.js';
import { createProgress } from './progress.js';
import { openStore } from './store-spec.js';
import { resumePoint } from './replay-resume.js';
import type { ReplayItem } from './replay-resume.js';
import { replayJson } from './summary-json.js';

/** Options of `context-ledger replay`. */
export interface ReplayOptions {
  readonly format?: ImportFormat | 'auto' | undefined;
  readonly store?: string | undefined;
  readonly session?: string | undefined;
  readonly maxTokens?: number | undefined;
  readonly compactAt?: number | undefined;
  readonly keepRecentTokens?: number | undefined;
  readonly json?: boolean | undefined;
  /** Skip (and report with file:line and reason) lines that do not parse or hold an invalid message. */
  readonly skipInvalid?: boolean | undefined;
  /** Continue a session that already holds a prefix of this transcript (an interrupted replay). */
  readonly resume?: boolean | undefined;
}

/** Result of a replay: the session, how many spans it holds, and the final context. */
export interface ReplayOutcome {
  readonly session: LedgerSession;
  readonly spans: number;
  readonly context: RenderedContext;
  readonly skipped: number;
  /** Messages already in the session when `--resume` continued it (0 otherwise). */
  readonly resumedAt: number;
  /** Close the store. */
  close(): Promise<void>;
}

/** Read, parse and validate the first conversation of `file`, before anything is written. */
async function readConversation(
  file: string,
  options: ReplayOptions,
  sessionId: string,
  log: (line: string) => void,
): Promise<{ items: ReplayItem[]; skipped: number }> {
  const progress = createProgress(`read ${basename(file)}`, { quiet: options.json === true });
  let skipped = 0;
  const items: ReplayItem[] = [];
  let conversations = 0;
  const events = readEvents(file, {
    format: options.format,
    skipInvalid: options.skipInvalid,
    onSkip: (error) => {
      skipped++;
      log(`skipped: ${error.message}`);
    },
    onWarning: (message) => log(`warning: ${message}`),
    onProgress: (done, total) => progress.update(done, total),
  });
  for await (const event of events) {
    if (event.type === 'session') {
      conversations++;
      if (conversations > 1) {
        log(`${file} holds more than one conversation; replayed the first into session ${sessionId}.`);
        break;
      }
      continue;
    }
    if (event.type === 'message')
      items.push({ type: 'message', message: event.message, where: whereOf(file, event.message) });
    else
      items.push({
        type: 'compaction',
        summary: event.summary,
        summarizer: event.summarizer,
        where: event.label ? `${file} (${event.label})` : file,
      });
  }
  progress.done(`${items.length} messages and compactions`);
  return { items, skipped };
}

/**
 * Replay a transcript file through a session, rendering after every message as an agent
 * loop would. All or nothing per session: the whole conversation is parsed and validated
 * before the store is opened, so a bad line writes nothing. A session that already holds
 * spans is refused, unless `resume` is set and those spans are this transcript's first ones
 * (then the replay continues after them).
 */
export async function replayFile(
  file: string,
  options: ReplayOptions,
  log: (line: string) => void = () => undefined,
): Promise<ReplayOutcome> {
  await access(file, constants.R_OK).catch(() => {
    throw new InvalidInputError(`${file}: cannot read the transcript (missing or not readable)`, { file });
  });
  if ((await stat(file)).isDirectory())
    throw new InvalidInputError(`${file}: is a directory; give a transcript file`, { file });
  const sessionId = options.session ?? basename(file, extname(file));
  const window: Partial<WindowConfig> = {
    ...(options.maxTokens !== undefined ? { maxTokens: options.maxTokens } : {}),
    ...(options.compactAt !== undefined ? { compactAt: options.compactAt } : {}),
    ...(options.keepRecentTokens !== undefined ? { keepRecentTokens: options.keepRecentTokens } : {}),
  };
  const { items, skipped } = await readConversation(file, options, sessionId, log);
  const store = await openStore(options.store);
  try {
    const existing = await store.nextSeq(sessionId);
    if (existing > 0 && options.resume !== true) {
      throw new InvalidInputError(
        `Session ${sessionId} already holds ${existing} spans in ${store.location}; replaying again would append the transcript twice. ` +
          'Pass --resume to continue an interrupted replay of this same file, or --session NEW_ID or another --store.',
        { sessionId, spans: existing },
      );
    }
    const ledger = createLedger({ store });
    const session = await ledger.session(sessionId, { window });
    const start =
      existing > 0
        ? await resumePoint({ file, sessionId, items, session, ledger, spans: existing })
        : { item: 0, messages: 0 };
    if (existing > 0)
      log(
        `resuming session ${sessionId}: ${start.messages} messages (${existing} spans) already replayed; continuing from there.`,
      );
    await appendItems(session, items.slice(start.item), basename(file), options.json === true);
    const context = await session.render();
    return {
      session,
      spans: await store.nextSeq(sessionId),
      context,
      skipped,
      resumedAt: start.messages,
      close: () => store.close(),
    };
  } catch (error) {
    await store.close();
    throw error;
  }
}

/** Append items in agent-loop batches (an assistant text message waits for what follows), rendering after each. */
async function appendItems(
  session: LedgerSession,
  items: readonly ReplayItem[],
  name: string,
  quiet: boolean,
): Promise<void> {
  const progress = createProgress(`replay ${name}`, { quiet });
  const total = items.length;
  let batch: TranscriptMessage[] = [];
  const flush = async () => {
    if (batch.length === 0) return;
    await session.append(batch);
    batch = [];
    await session.render();
  };
  for (const [index, item] of items.entries()) {
    if (item.type === 'compaction') {
      await flush();
      await session.importExternalSummary({ summary: item.summary, summarizer: item.summarizer });
    } else {
      batch.push(item.message);
      if (item.message.role !== 'assistant' || (item.message.toolCalls ?? []).length > 0) await flush();
    }
    progress.update(index + 1, total, `${session.records().length} compactions`);
  }
  await flush();
  progress.done(`${session.records().length} compactions`);
}

/** Print a readable summary of a replay. */
export function printReplay(outcome: ReplayOutcome, print: (line: string) => void): void {
  const { session, spans, context } = outcome;
  print(
    `session ${session.id}: ${spans} spans, ${session.records().length} records, ` +
      `final context ${context.tokens}/${session.config.maxTokens} tokens`,
  );
  for (const record of session.records()) {
    const { fromSeq, toSeq } = record.droppedRange;
    const flag = record.reversible ? 'lossless' : 'LOSSY   ';
    print(
      `  ${record.id}  ${record.type.padEnd(10)} depth ${record.depth}  ${flag}  seq ${fromSeq}-${toSeq}  ` +
        `${record.handles.length} handles  ${record.summaryTokens} summary tokens`,
    );
    for (const finding of record.findings.slice(0, 3)) print(`      finding: ${finding.message}`);
  }
  const byKind = new Map<string, number>();
  for (const handle of session.handleIndex()) byKind.set(handle.kind, (byKind.get(handle.kind) ?? 0) + 1);
  print(`handle index: ${[...byKind].map(([kind, count]) => `${kind} ${count}`).join(', ') || 'empty'}`);
  print(`gaps: ${session.gaps().length}`);
  if (outcome.skipped > 0) print(`skipped ${outcome.skipped} invalid lines`);
  if (outcome.resumedAt > 0) print(`resumed after ${outcome.resumedAt} messages already in the session`);
}

export { replayJson };
