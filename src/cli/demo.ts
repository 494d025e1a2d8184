import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { LedgerError } from '../errors.js';
import { createLedger } from '../session/ledger.js';
import type { TranscriptMessage } from '../ingest/messages.js';
import type { RecallResult } from '../recall/recall.js';
import { shortSpanId } from '../model/span.js';
import type { RenderedMessage } from '../window/window.js';
import { demoFollowUp, demoTranscript } from './demo-transcript.js';
import { replayFile } from './replay.js';
import type { ReplayOutcome } from './replay.js';
import { openStore } from '../stores/store-spec.js';
import { asSentence, counted } from '../text/wording.js';
import { droppedRangeWords } from '../text/range-wording.js';

/** Serialize transcript messages as OpenAI-style JSONL. */
export function toOpenAiJsonl(messages: readonly TranscriptMessage[]): string {
  return (
    messages
      .map((message) =>
        JSON.stringify({
          role: message.role,
          content: message.content,
          ...(message.toolCalls && message.toolCalls.length > 0
            ? {
                tool_calls: message.toolCalls.map((call) => ({
                  id: call.id,
                  type: 'function',
                  function: { name: call.name, arguments: call.arguments },
                })),
              }
            : {}),
          ...(message.toolCallId ? { tool_call_id: message.toolCallId } : {}),
          ...(message.toolName ? { name: message.toolName } : {}),
        }),
      )
      .join('\n') + '\n'
  );
}

/** Where the demo writes its lines. */
type Print = (line: string) => void;

function showRecall(print: Print, result: RecallResult): void {
  print(`recall ${JSON.stringify(result.query)} -> ${result.status.toUpperCase()}: ${result.note}`);
  for (const hit of result.results.slice(0, 3)) {
    const line = hit.text.split('\n').find((candidate) => candidate.includes(result.query)) ?? hit.text.slice(0, 100);
    print(`    [${hit.status}] seq ${hit.seq} ${hit.spanId.slice(0, 19)}…  ${line}`);
  }
  if (result.gap) {
    const dropped = droppedRangeWords(result.gap.droppedRange, { bytes: false });
    print(`    gap: record ${result.gap.recordId}, dropped ${dropped}; ${asSentence(result.gap.reread)}`);
  }
}

/** Write the demo transcript under `directory` and clear an old demo database; returns both paths. */
async function prepareDemoFiles(
  print: Print,
  directory: string,
  maxTokens: number,
): Promise<{ transcriptPath: string; databasePath: string }> {
  await mkdir(directory, { recursive: true });
  const transcriptPath = join(directory, 'demo-transcript.jsonl');
  const databasePath = join(directory, 'demo.db');
  for (const suffix of ['', '-wal', '-shm']) await rm(databasePath + suffix, { force: true });
  const messages = demoTranscript();
  await writeFile(transcriptPath, toOpenAiJsonl(messages));
  print(`Wrote a ${messages.length}-message deployment-debugging session to ${transcriptPath}.`);
  print(`Replaying it into sqlite:${databasePath} with a ${maxTokens}-token window...\n`);
  return { transcriptPath, databasePath };
}

/** One paragraph per record of the replayed session: checkpoints in a line, summaries with their pinned constraints. */
function showRecords(print: Print, outcome: ReplayOutcome): void {
  const { session } = outcome;
  print(`== ${session.records().length} records for ${outcome.spans} spans ==`);
  for (const record of session.records()) {
    if (record.type === 'checkpoint') {
      print(
        `${record.id}  checkpoint: ${counted(record.handles.length, 'handle')} spilled out of the window, addressable by this id`,
      );
      continue;
    }
    const flag = record.reversible ? 'lossless' : 'LOSSY';
    const range = droppedRangeWords(record.droppedRange, { bytes: false });
    print(`${record.id}  depth ${record.depth}  ${flag}  ${range}  ancestors [${record.ancestors.join(', ')}]`);
    const constraints = record.handles.filter((handle) => handle.kind === 'constraint');
    const checkpoint = record.checkpointId ? ` (+ checkpoint ${record.checkpointId})` : '';
    print(
      `    kept ${counted(record.handles.length, 'handle')} in the window${checkpoint}; ` +
        `${constraints.length} pinned constraints; summary ${record.summaryTokens} tokens`,
    );
    for (const handle of constraints.slice(0, 3)) print(`    pinned [${handle.role}] ${handle.text}`);
  }
}

/** The final context (cut at 6,000 characters), then two recalls against it. */
async function showContextAndRecall(print: Print, outcome: ReplayOutcome): Promise<void> {
  const { session, context } = outcome;
  print(
    `\n== Final context: ${context.tokens} of ${session.config.maxTokens} tokens, ${context.messages.length} messages ==`,
  );
  print(
    context.text.length > 6000
      ? context.text.slice(0, 6000) + `\n… (${context.text.length - 6000} more characters)`
      : context.text,
  );
  print('\n== Recall ==');
  showRecall(print, await session.recall('eu-west-2b'));
  showRecall(print, await session.recall('retry ceiling of 7'));
}

/** A second session reads bulky logs until one tool result is masked to a stub, then recalls it by its short id. */
async function showMasking(print: Print, databasePath: string, maxTokens: number): Promise<void> {
  print('\n== Masking: an old bulky tool result leaves the window as a stub, nothing is summarized ==');
  const logsLedger = createLedger({ store: await openStore(`sqlite:${databasePath}`) });
  const logs = await logsLedger.session('payments-logs', { window: { maxTokens } });
  let masked: RenderedMessage | undefined;
  for (const message of demoFollowUp()) {
    await logs.append(message);
    const rendered = await logs.render();
    masked = rendered.messages.find((candidate) => candidate.masked !== undefined);
    if (masked) break;
  }
  if (masked?.spanId) {
    print(
      `a new session read the deploy logs several times; ${logs.records().length} summary records written; in the window now:`,
    );
    print(`    ${masked.content}`);
    const shown = shortSpanId(masked.spanId);
    const back = await logs.recall(shown);
    const first = back.results[0];
    const verbatim = first?.text.split('\n')[0] ?? '';
    print(
      `recall "${shown}" -> ${back.status.toUpperCase()}: ${first?.text.length ?? 0} characters, verbatim: ${verbatim}`,
    );
  } else {
    print(`(no tool result was masked: ${logs.records().length} records were written instead)`);
  }
  await logsLedger.close();
}

/** A session started from another tool's summary: recall reports the gap and compacting it again is refused. */
async function showExternalHandoff(print: Print, databasePath: string): Promise<void> {
  print('\n== A session resumed from a summary another tool wrote (originals never stored) ==');
  const store = await openStore(`sqlite:${databasePath}`);
  const ledger = createLedger({ store });
  const handoff = await ledger.session('payments-handoff', { window: { maxTokens: 4000 } });
  await handoff.importExternalSummary({
    summary:
      'The user is debugging a deployment failure on the payments service; earlier attempts to adjust configuration were unsuccessful.',
    summarizer: { name: 'previous-runtime', version: 'unknown' },
    toSeq: -1,
  });
  await handoff.append({ role: 'user', content: 'Carry on from where you left off.' });
  showRecall(print, await handoff.recall('PAYMENTS_DB_REPLICA'));
  try {
    await handoff.compact(0);
  } catch (error) {
    if (!LedgerError.isInstance(error)) throw error;
    print(`compacting it again is refused: ${error.code}: ${error.message}`);
  }
  await ledger.close();
}

/**
 * The demo: write a long deployment-debugging session, replay it into an embedded SQLite
 * ledger under `directory`, and show each compaction, the final context, a verified recall
 * and a reported gap.
 */
export async function runDemo(print: Print, options: { directory?: string; maxTokens?: number } = {}): Promise<void> {
  const maxTokens = options.maxTokens ?? 4000;
  const { transcriptPath, databasePath } = await prepareDemoFiles(
    print,
    options.directory ?? '.context-ledger',
    maxTokens,
  );
  const outcome = await replayFile(transcriptPath, {
    store: `sqlite:${databasePath}`,
    session: 'payments-deploy',
    maxTokens,
    json: true,
  });
  showRecords(print, outcome);
  await showContextAndRecall(print, outcome);
  await showMasking(print, databasePath, maxTokens);
  await showExternalHandoff(print, databasePath);
  await outcome.close();
  print(
    `\nInspect it yourself: context-ledger recall eu-west-1 --store sqlite:${databasePath} --session payments-deploy`,
  );
}
