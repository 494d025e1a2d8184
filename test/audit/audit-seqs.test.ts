/**
 * The audit's seqs are the ledger's (issue 38): every "seq N" the audit reports (a future-needed handle's first seq,
 * a lost handle's, a source span's, the boundary) is the seq of the same span in the ledger `replay FILE` writes and
 * in the one the Claude Code hook writes, so `expand --from-seq N` on that session shows it. The transcript holds tool
 * outputs of 900 to 1,900 tokens: cut into spans of 2,000 tokens (the audit's size before) and of 800 (the ledger's
 * at the default window), their seqs part after the first one.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditFile } from '../../src/audit/analyze.js';
import { ledgerSpanTokens } from '../../src/audit/timeline.js';
import type { SessionAudit } from '../../src/audit/types.js';
import { renderAuditHtml } from '../../src/audit/report-html.js';
import { escapeHtml } from '../../src/audit/report-html-chart.js';
import { printAudit } from '../../src/audit/report-text.js';
import { replayFile } from '../../src/cli/replay.js';
import { runClaudeCodeHook } from '../../src/integrations/claude-code/hook.js';
import { expandOriginals } from '../../src/integrations/drill-down.js';
import { resolveWindowConfig } from '../../src/session/config.js';
import { openStore } from '../../src/stores/store-spec.js';
import type { LedgerStore } from '../../src/stores/store.js';
import { createO200kCounter } from '../../src/tokens/token-counter.js';
import { claudeSession, jsonl } from '../integrations/claude-code-fixture.js';

let root = '';
let transcript = '';

/** A tool output of about `lines` × 12 tokens naming `handle` near its end. */
function bigOutput(lines: number, handle: string): string {
  const rows = Array.from({ length: lines }, (_, index) => `row ${index}: station reading within tolerance, ok`);
  return [...rows, `failing object: ${handle}`, 'done'].join('\n');
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'cl-audit-seqs-'));
  transcript = join(root, 'seq-session.jsonl');
  const s = claudeSession('seq-session', '/home/dev/stations');
  const records = [
    s.user('The export of stations is failing. Find why, and do not touch /srv/archive.'),
    s.toolUse('t1', 'python -m exporter --dry-run'),
    s.toolResult('t1', bigOutput(150, 'bucket-eu-7f3a9c')),
    s.toolUse('t2', 'python -m exporter --list'),
    s.toolResult('t2', bigOutput(90, 'pipelines/export/station_csv.py')),
    s.assistant('The failing object is named in the dry run; the exporter is the module below.'),
    s.boundary(),
    s.summary('The user asked to fix the station export. A dry run was made.'),
    s.toolUse('t3', 'aws s3 ls s3://bucket-eu-7f3a9c && sed -n 1,40p pipelines/export/station_csv.py'),
    s.toolResult('t3', 'ok'),
    s.assistant('bucket-eu-7f3a9c is reachable; the bug is in pipelines/export/station_csv.py.'),
  ];
  await writeFile(transcript, jsonl(records));
}, 60_000);

afterAll(async () => {
  if (root !== '') await rm(root, { recursive: true, force: true });
});

/** Every seq the audit names, with a text the ledger's span at that seq must hold. */
function namedSeqs(session: SessionAudit): { seq: number; text: string }[] {
  const handles = session.compactions.flatMap((compaction) => compaction.futureNeeded);
  const lost = session.generations.flatMap((generation) => generation.lost);
  return [
    ...[...handles, ...lost].map((handle) => ({ seq: handle.firstSeq, text: handle.text })),
    ...session.sourceSpans.map((span) => ({ seq: span.seq, text: span.excerpt.replace(/^…|…$/g, '').slice(0, 60) })),
  ];
}

async function expectSameSeqs(store: LedgerStore, sessionId: string, session: SessionAudit): Promise<void> {
  const occurrences = await store.occurrences(sessionId);
  expect(occurrences).toHaveLength(session.spans);
  const named = namedSeqs(session);
  expect(named.map((entry) => entry.text)).toEqual(
    expect.arrayContaining(['bucket-eu-7f3a9c', 'pipelines/export/station_csv.py']),
  );
  for (const { seq, text } of named) expect(occurrences[seq]?.span.text, `seq ${seq}: ${text}`).toContain(text);
  // The boundary: the first span after it is the ledger's first span after the summary (the next tool call).
  const boundary = session.compactions[0]?.seqBoundary ?? -1;
  expect(occurrences[boundary]?.span.text).toContain('aws s3 ls');
}

describe("audit seqs are the ledger's", () => {
  it('the audit cuts spans as a ledger session at its --max-tokens does (800 tokens at the default 8000)', () => {
    expect(ledgerSpanTokens(8000)).toBe(resolveWindowConfig('any').maxSpanTokens);
    expect(ledgerSpanTokens(4000)).toBe(resolveWindowConfig('any', { maxTokens: 4000 }).maxSpanTokens);
    expect(ledgerSpanTokens(8000)).toBe(800);
  });

  it('the big outputs are over one span of 800 tokens, so the test tells span sizes apart', async () => {
    const counter = createO200kCounter();
    expect(counter.count(bigOutput(150, 'bucket-eu-7f3a9c'))).toBeGreaterThan(1600);
    expect(counter.count(bigOutput(150, 'bucket-eu-7f3a9c'))).toBeLessThan(2000);
    expect(counter.count(bigOutput(90, 'x'))).toBeGreaterThan(800);
  });

  it('= the seqs of `replay FILE` (default window), and `expand --from-seq N` shows seq N', async () => {
    const audit = await auditFile(transcript);
    const session = audit.sessions[0]!;
    const database = join(root, 'replay.db');
    const outcome = await replayFile(transcript, { store: `sqlite:${database}`, quiet: true });
    await outcome.close();
    const store = await openStore(`sqlite:${database}`, { existing: true });
    try {
      await expectSameSeqs(store, 'seq-session', session);
      const [first] = namedSeqs(session);
      const page = await expandOriginals(store, createO200kCounter(), 'seq-session', {
        fromSeq: first!.seq,
        toSeq: first!.seq,
        maxTokens: 4000,
      });
      expect(JSON.stringify(page)).toContain(first!.text);
    } finally {
      await store.close();
    }
  });

  it('= the seqs of the ledger the Claude Code hook writes', async () => {
    const audit = await auditFile(transcript);
    const environment = { HOME: join(root, 'home'), CONTEXT_LEDGER_HOME: join(root, 'ledger') };
    const input = { session_id: 'seq-session', transcript_path: transcript, cwd: root, hook_event_name: 'Stop' };
    const ran = await runClaudeCodeHook(input, { environment, store: `sqlite:${join(root, 'hook.db')}` });
    expect(ran.ingest?.spans).toBe(audit.sessions[0]?.spans);
    const store = await openStore(`sqlite:${join(root, 'hook.db')}`, { existing: true });
    try {
      await expectSameSeqs(store, 'seq-session', audit.sessions[0]!);
    } finally {
      await store.close();
    }
  });

  it('= the seqs of `replay FILE --max-tokens M` for the audit at the same --max-tokens', async () => {
    const audit = await auditFile(transcript, { maxTokens: 4000 });
    const database = join(root, 'replay-4000.db');
    const outcome = await replayFile(transcript, { store: `sqlite:${database}`, quiet: true, maxTokens: 4000 });
    await outcome.close();
    const store = await openStore(`sqlite:${database}`, { existing: true });
    try {
      await expectSameSeqs(store, 'seq-session', audit.sessions[0]!);
    } finally {
      await store.close();
    }
  });

  it('the text and HTML reports say which session and command a seq N is read with', async () => {
    const document = { files: [await auditFile(transcript)] };
    const lines: string[] = [];
    printAudit(document, (line) => lines.push(line));
    const hint =
      "seq N is this session's seq in the ledger its hooks write, or replay FILE at the same --max-tokens: " +
      'context-ledger expand --from-seq N --to-seq N --session seq-session';
    expect(lines).toContain(`  ${hint}`);
    expect(renderAuditHtml(document)).toContain(`<small data-testid="expand-hint">${escapeHtml(hint)}</small>`);
  });

  it('a conversation of a file of several: the session replay --trajectory ID writes', async () => {
    const trajectories = join(process.cwd(), 'test/importers/fixtures/swe-agent-trajectories.jsonl');
    const lines: string[] = [];
    printAudit({ files: [await auditFile(trajectories)] }, (line) => lines.push(line));
    expect(lines).toContain(
      "  seq N is this session's seq in the ledger replay FILE --trajectory acme__gears-7 writes at the same " +
        '--max-tokens: context-ledger expand --from-seq N --to-seq N --session acme__gears-7',
    );
  });
});
