import { createLedger } from '../src/session/ledger.js';
import type { TranscriptMessage } from '../src/ingest/messages.js';
import { createMemoryStore } from '../src/stores/memory/memory-store.js';
import { createExtractiveSummarizer } from '../src/summarizers/extractive.js';
import type { SourceUnit, Summarizer } from '../src/summarizers/summarizer.js';
import type { CompactionRecord, Handle, HandleKind, Role } from '../src/types.js';

/** A ledger on the memory store with a fixed clock. */
export function memoryLedger(summarizer?: Summarizer) {
  return createLedger({ store: createMemoryStore(), summarizer, now: () => new Date('2026-11-12T10:00:00Z') });
}

/** The seed-000 opening: replica, prohibition, retry ceiling. */
export const SEED_OPENING: TranscriptMessage = {
  role: 'user',
  content:
    'We are debugging the payments deploy. Use PAYMENTS_DB_REPLICA=eu-west-2b for the database. The eu-west-1 replica is read-only, do not target it. Keep the retry ceiling of 7 from the config.',
};

/** The two turns of the agent reading a file: its Read call (`id`) and the tool result holding `content`. */
export function readTurns(file: string, content: string, intro: string, id = 'r1'): TranscriptMessage[] {
  return [
    {
      role: 'assistant',
      content: intro,
      toolCalls: [{ id, name: 'Read', arguments: JSON.stringify({ file_path: file }) }],
    },
    { role: 'tool', toolCallId: id, toolName: 'Read', content },
  ];
}

/** Filler turns of an agent session: n rounds of a tool call, a log-like result and a comment. */
export function fillerTurns(rounds: number, start = 0): TranscriptMessage[] {
  const messages: TranscriptMessage[] = [];
  for (let round = start; round < start + rounds; round++) {
    const id = `call_${round}`;
    messages.push({
      role: 'assistant',
      content: `Checking the service health, step ${round}.`,
      toolCalls: [
        {
          id,
          name: 'bash',
          arguments: JSON.stringify({ command: `curl -s http://payments.internal:8080/healthz?probe=${round}` }),
        },
      ],
    });
    const lines = Array.from(
      { length: 12 },
      (_, line) =>
        `probe ${round}.${line}: latency ${(round * 13 + line * 7) % 900}ms from node ip-10-0-${round % 7}-${line}; queue depth ${(round + line) % 40}`,
    );
    messages.push({ role: 'tool', content: lines.join('\n'), toolCallId: id, toolName: 'bash' });
    messages.push({
      role: 'assistant',
      content: `The service answered round ${round}; the overall trend is similar to before and nothing stands out in the latency figures yet.`,
    });
  }
  return messages;
}

/** A summarizer that behaves like a model rewriting a handle: eu-west-2b becomes eu-west-1. */
export function rewritingSummarizer(): Summarizer {
  const inner = createExtractiveSummarizer();
  return {
    identity: { name: 'rewriting-test-summarizer', version: '1' },
    async summarize(request) {
      const result = await inner.summarize(request);
      const rewrite = (text: string) => text.replaceAll('eu-west-2b', 'eu-west-1');
      const claims = result.claims.map((claim) => ({ ...claim, text: rewrite(claim.text) }));
      const replica = request.units.find((unit) => unit.text.includes('PAYMENTS_DB_REPLICA=eu-west-2b'));
      if (replica && !claims.some((claim) => claim.text.includes('PAYMENTS_DB_REPLICA=eu-west-1')))
        claims.unshift({ text: 'Use PAYMENTS_DB_REPLICA=eu-west-1 for the database.', spanIds: replica.spanIds });
      return { summary: claims.map((claim) => claim.text).join(' '), claims };
    },
  };
}

let nextHandleSeq = 0;

/** A handle row spanning the whole of `text`, each one at the next seq (and its own span id) of the test file. */
export function handleAt(text: string, kind: HandleKind = 'identifier', role: Role = 'tool'): Handle {
  const seq = nextHandleSeq++;
  return {
    kind,
    text,
    key: text.toLowerCase(),
    start: 0,
    end: text.length,
    spanId: `sha256:${seq}`,
    seq,
    role,
    tokens: Math.ceil(text.length / 4),
  };
}

/** A frozen handle at `seq` (span `s<seq>`), keyed by its exact text, of 1 + length/4 tokens: the placement tests' unit. */
export function placedHandle(value: string, kind: HandleKind, role: Role, seq: number): Handle {
  return Object.freeze({
    kind,
    text: value,
    key: value,
    start: 0,
    end: value.length,
    spanId: `s${seq}`,
    seq,
    role,
    tokens: 1 + Math.ceil(value.length / 4),
  });
}

/** A summary record of session `s` over seqs 0-9 with no handles, claims or ancestors; `fields` override any field. */
export function summaryRecord(fields: Partial<CompactionRecord> = {}): CompactionRecord {
  return {
    id: 'rec_test',
    sessionId: 's',
    ordinal: 0,
    type: 'summary',
    summary: '',
    claims: [],
    handles: [],
    reversible: true,
    depth: 1,
    droppedRange: { fromSeq: 0, toSeq: 9, byteStart: 0, byteEnd: 100 },
    ancestors: [],
    rederived: false,
    summarizer: { name: 'test', version: '1' },
    findings: [],
    summaryTokens: 0,
    atSeq: 10,
    createdAt: '2026-11-12T10:00:00Z',
    ...fields,
  };
}

/** A summarizer's source unit of the region: its text, one span id made from `index`, `index` as its seq. */
export function sourceUnit(
  index: number,
  role: SourceUnit['role'],
  text: string,
  kind?: SourceUnit['kind'],
): SourceUnit {
  return {
    text,
    spanIds: [`sha256:${String(index).padStart(4, '0')}`],
    role,
    seq: index,
    kind: kind ?? (role === 'tool' ? 'tool-result' : role),
    origin: 'original',
  };
}
