import { access, constants, stat } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import { InvalidInputError } from '../errors.js';
import type { ImportFormat } from '../importers/events.js';
import { readEvents } from '../importers/registry.js';
import { createLedger } from '../ledger.js';
import type { TranscriptMessage } from '../messages.js';
import type { LedgerSession } from '../session.js';
import type { WindowConfig } from '../types.js';
import type { RenderedContext } from '../window.js';
import { createProgress } from './progress.js';
import { openStore } from './store-spec.js';
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
  readonly skipInvalid?: boolean | undefined;
}

/** Result of a replay: the session, how many spans it holds, and the final context. */
export interface ReplayOutcome {
  readonly session: LedgerSession;
  readonly spans: number;
  readonly context: RenderedContext;
  readonly skipped: number;
  /** Close the store. */
  close(): Promise<void>;
}

/** Replay a transcript file through a session, rendering after every message as an agent loop would. */
export async function replayFile(file: string, options: ReplayOptions, log: (line: string) => void = () => undefined): Promise<ReplayOutcome> {
  await access(file, constants.R_OK).catch(() => {
    throw new InvalidInputError(`${file}: cannot read the transcript (missing or not readable)`, { file });
  });
  if ((await stat(file)).isDirectory()) throw new InvalidInputError(`${file}: is a directory; give a transcript file`, { file });
  const store = await openStore(options.store);
  const ledger = createLedger({ store });
  const sessionId = options.session ?? basename(file, extname(file));
  const window: Partial<WindowConfig> = {
    ...(options.maxTokens !== undefined ? { maxTokens: options.maxTokens } : {}),
    ...(options.compactAt !== undefined ? { compactAt: options.compactAt } : {}),
    ...(options.keepRecentTokens !== undefined ? { keepRecentTokens: options.keepRecentTokens } : {}),
  };
  const session = await ledger.session(sessionId, { window }).catch(async (error: unknown) => {
    await store.close();
    throw error;
  });
  const existing = await store.nextSeq(sessionId);
  if (existing > 0) {
    throw new InvalidInputError(`Session ${sessionId} already holds ${existing} spans in ${store.location}; replaying again would append the transcript twice. Pass --session NEW_ID or another --store.`, { sessionId, spans: existing });
  }
  const progress = createProgress(`replay ${basename(file)}`, { quiet: options.json === true });
  let skipped = 0;
  let records = 0;
  const events = readEvents(file, {
    format: options.format,
    skipInvalid: options.skipInvalid,
    onSkip: (error) => {
      skipped++;
      log(`skipped: ${error.message}`);
    },
    onProgress: (done, total) => progress.update(done, total, `${session.records().length} compactions`),
  });
  let batch: TranscriptMessage[] = [];
  const flush = async () => {
    if (batch.length === 0) return;
    await session.append(batch);
    batch = [];
    await session.render();
    const now = session.records().length;
    if (now > records) records = now;
  };
  let conversations = 0;
  for await (const event of events) {
    if (event.type === 'session') {
      conversations++;
      if (conversations > 1) {
        log(`${file} holds more than one conversation; replayed the first into session ${sessionId}.`);
        break;
      }
      continue;
    }
    if (event.type === 'compaction') {
      await flush();
      await session.importExternalSummary({ summary: event.summary, summarizer: event.summarizer });
      continue;
    }
    const { message } = event;
    batch.push(message);
    if (message.role !== 'assistant' || (message.toolCalls ?? []).length > 0) await flush();
  }
  await flush();
  const context = await session.render();
  progress.done(`${session.records().length} compactions`);
  return { session, spans: await store.nextSeq(sessionId), context, skipped, close: () => store.close() };
}

/** Print a readable summary of a replay. */
export function printReplay(outcome: ReplayOutcome, print: (line: string) => void): void {
  const { session, spans, context } = outcome;
  print(`session ${session.id}: ${spans} spans, ${session.records().length} records, final context ${context.tokens}/${session.config.maxTokens} tokens`);
  for (const record of session.records()) {
    const { fromSeq, toSeq } = record.droppedRange;
    print(`  ${record.id}  ${record.type.padEnd(10)} depth ${record.depth}  ${record.reversible ? 'lossless' : 'LOSSY   '}  seq ${fromSeq}-${toSeq}  ${record.handles.length} handles  ${record.summaryTokens} summary tokens`);
    for (const finding of record.findings.slice(0, 3)) print(`      finding: ${finding.message}`);
  }
  const byKind = new Map<string, number>();
  for (const handle of session.handleIndex()) byKind.set(handle.kind, (byKind.get(handle.kind) ?? 0) + 1);
  print(`handle index: ${[...byKind].map(([kind, count]) => `${kind} ${count}`).join(', ') || 'empty'}`);
  print(`gaps: ${session.gaps().length}`);
  if (outcome.skipped > 0) print(`skipped ${outcome.skipped} invalid lines`);
}

export { replayJson };
