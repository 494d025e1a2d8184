import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { auditFile, auditFiles } from '../../src/audit/analyze.js';
import { footprintBudgets } from '../../src/audit/compare.js';
import { containsVerbatim, usedHandles } from '../../src/audit/handle-sets.js';
import { renderAuditHtml } from '../../src/audit/report-html.js';
import { printAudit } from '../../src/audit/report-text.js';
import { toOpenAiJsonl } from '../../src/cli/demo.js';
import { TranscriptParseError } from '../../src/errors.js';
import type { TranscriptMessage } from '../../src/ingest/messages.js';
import { fillerTurns, SEED_OPENING } from '../helpers.js';

const FIXTURE = join(process.cwd(), 'test/audit/fixtures/compacted-session.jsonl');

describe('audit of an agent compaction (fixture)', () => {
  it('counts handles before the boundary and what the summary kept', async () => {
    const audit = await auditFile(FIXTURE);
    expect(audit.format).toBe('claude-code');
    const session = audit.sessions[0];
    expect(session?.mode).toBe('agent');
    expect(session?.spans).toBe(12);
    const compaction = session?.compactions[0];
    expect(session?.compactions).toHaveLength(1);
    expect(compaction).toMatchObject({
      label: 's-01',
      summarizer: 'claude-code 2.1.40',
      seqBoundary: 7,
      agentSummaryTokens: 195,
    });
    // `</script>` in the tool output is a markup tag, not the path `/script` (issue 11).
    // `row.value` (a member chain in the tool output, used by the agent later) is an identifier (issue 11).
    // "The exporter lives in pipelines/export/station_csv.py" binds the path to its label (an assignment).
    expect(compaction?.handlesBefore).toEqual({
      path: 4,
      constraint: 1,
      identifier: 9,
      error: 1,
      number: 1,
      assignment: 1,
    });
    expect(compaction?.keptByAgent).toEqual({ identifier: 3 });
  });

  it('lists the future-needed handles, where they first appeared, and who kept them', async () => {
    const compaction = (await auditFile(FIXTURE)).sessions[0]?.compactions[0];
    const rows = compaction?.futureNeeded.map((handle) => [
      handle.kind,
      handle.text,
      handle.firstSeq,
      handle.firstLabel,
      handle.role,
      handle.keptByAgent,
      handle.inLedgerWindow,
      handle.inLedgerCheckpoint,
      handle.ledgerRecall,
    ]);
    expect(rows).toEqual([
      // The user's instruction is pinned (9 tokens + its 6-token label line + the 4-token heading: 19 of the 24-token
      // handle budget), which leaves no room for the 16-token binding that showed this path: it is in the checkpoint.
      ['path', 'pipelines/export/station_csv.py', 0, 'u-01', 'user', false, false, true, 'verified'],
      ['constraint', 'Do not delete files under /srv/archive.', 0, 'u-01', 'user', false, true, false, 'verified'],
      ['path', '/srv/archive', 0, 'u-01', 'user', false, true, false, 'verified'],
      ['identifier', 'CHUNK_TIMEOUT_SECONDS', 3, 'r-01', 'tool', false, false, true, 'verified'],
      ['identifier', 'export_batch', 3, 'r-01', 'tool', true, false, true, 'verified'],
      ['identifier', 'row.value', 3, 'r-01', 'tool', false, false, true, 'verified'],
      // Nor for this one, which is in the checkpoint too (one recall away).
      ['path', 'tests/test_station_csv.py', 4, 'a-03', 'assistant', false, false, true, 'verified'],
    ]);
    expect(compaction?.userConstraints).toBe(1);
    expect(
      compaction?.lostConstraints.map((constraint) => [
        constraint.text,
        constraint.firstSeq,
        constraint.inLedgerWindow,
      ]),
    ).toEqual([['Do not delete files under /srv/archive.', 0, true]]);
  });

  it('compares with context-ledger at the same footprint', async () => {
    const ledger = (await auditFile(FIXTURE)).sessions[0]?.compactions[0]?.ledger;
    expect(ledger).toMatchObject({
      futureNeededInWindow: 2,
      futureNeededReachable: 7,
      constraintsKept: 1,
      reversible: true,
    });
    expect(ledger?.recordId).toMatch(/^rec_/);
    // 195 tokens leave 35 after the 160-token frame: 11 summary + 24 handles.
    expect(ledger?.budgets).toEqual({ summaryBudgetTokens: 11, handleBudgetTokens: 24 });
    expect(ledger?.tokens).toBeLessThanOrEqual(195);
    // The pinned instruction and the path inside it (see above); the binding and its path are in the checkpoint.
    expect(ledger?.keptInWindow).toEqual({ constraint: 1, path: 1 });
  });

  it('records the lineage, the gap and the source spans of the lost handles', async () => {
    const session = (await auditFile(FIXTURE)).sessions[0];
    expect(
      session?.generations.map((generation) => [
        generation.writer,
        generation.reversible,
        generation.futureNeeded,
        generation.futureNeededInWindow,
        generation.futureNeededReachable,
      ]),
    ).toEqual([
      ['agent', false, 7, 1, 1],
      ['context-ledger', true, 7, 2, 7],
    ]);
    expect(session?.gaps).toHaveLength(1);
    expect(session?.gaps[0]?.type).toBe('external');
    expect(session?.sourceSpans.map((span) => [span.seq, span.label, span.role])).toEqual([
      [0, 'u-01', 'user'],
      [3, 'r-01', 'tool'],
      [4, 'a-03', 'assistant'],
    ]);
    expect(session?.sourceSpans[1]?.excerpt).toContain('<script>alert("station")</script>');
  });

  it('prints a readable report naming the lost handles', async () => {
    const lines: string[] = [];
    printAudit(await auditFiles([FIXTURE]), (line) => lines.push(line));
    const text = lines.join('\n');
    expect(text).toContain("kept by the agent's summary (195 tokens):       1");
    expect(text).toMatch(/2 in the window, 7 reachable with one recall/);
    expect(text).toContain('"pipelines/export/station_csv.py"  first at seq 0 (user, u-01)');
  });

  it('escapes transcript text in the HTML report and links lost handles to their spans', async () => {
    const html = renderAuditHtml(await auditFiles([FIXTURE]));
    expect(html).not.toMatch(/<script/i);
    expect(html).toContain('&lt;script&gt;alert(&quot;station&quot;)&lt;/script&gt;');
    expect(html).toContain('href="#span-1-0"');
    expect(html).toContain('id="span-1-3"');
    expect(html).not.toMatch(/(?:src|href)="(?:https?:)?\/\//);
  });
});

describe('audit of a Codex rollout', () => {
  it('audits the `compacted` record like a Claude Code compaction', async () => {
    const session = (await auditFile(join(process.cwd(), 'test/importers/fixtures/codex-rollout.jsonl'))).sessions[0];
    expect(session?.mode).toBe('agent');
    expect(session?.compactions.map((compaction) => [compaction.summarizer, compaction.seqBoundary])).toEqual([
      ['codex 0.58.0', 10],
    ]);
    expect(session?.gaps.map((gap) => gap.type)).toEqual(['external']);
  });
});

describe('audit helpers', () => {
  it('matches handles verbatim, not inside longer words', () => {
    expect(containsVerbatim('retry 1425 times', '42')).toBe(false);
    expect(containsVerbatim('see lib/a.ex:12', 'lib/a.ex')).toBe(true);
    expect(containsVerbatim('run export_batch_v2', 'export_batch')).toBe(false);
  });

  it('reads used handles from tool-call argument values, not the schema keys', () => {
    const used = usedHandles({
      role: 'assistant',
      content: '',
      toolCalls: [{ id: 'c1', name: 'Read', arguments: JSON.stringify({ file_path: 'src/pipeline/run_batch.ts' }) }],
    });
    expect(used.map((handle) => handle.text)).toEqual(['src/pipeline/run_batch.ts']);
    expect(usedHandles({ role: 'tool', content: 'src/pipeline/run_batch.ts', toolCallId: 'c1' })).toEqual([]);
  });

  it('splits a footprint 30/70 after the ledger frame', () => {
    expect(footprintBudgets(3460)).toEqual({ summaryBudgetTokens: 990, handleBudgetTokens: 2310 });
  });
});

describe('audit of a transcript without agent compaction', () => {
  it('replays it at the budget and audits context-ledger own generations', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'cl-audit-'));
    const file = join(directory, 'plain.jsonl');
    const messages: TranscriptMessage[] = [
      SEED_OPENING,
      ...fillerTurns(40),
      { role: 'assistant', content: 'Deploying with PAYMENTS_DB_REPLICA=eu-west-2b as agreed.' },
    ];
    await writeFile(file, toOpenAiJsonl(messages));
    const audit = await auditFile(file, { maxTokens: 3000 });
    const session = audit.sessions[0];
    expect(session?.mode).toBe('replay');
    expect(session?.compactions).toEqual([]);
    expect(session?.generations.length).toBeGreaterThanOrEqual(2);
    for (const generation of session?.generations ?? []) {
      expect(generation.writer).toBe('context-ledger');
      expect(generation.futureNeededReachable).toBe(generation.futureNeeded);
    }
    const last = session?.generations[session.generations.length - 1];
    expect(last?.futureNeeded).toBeGreaterThanOrEqual(1);
    expect(last?.futureNeededInWindow).toBe(last?.futureNeeded);
    expect(renderAuditHtml({ files: [audit] })).toContain('data-testid="s1-generation-chart"');
  });
});

describe('audit errors', () => {
  it('names file, line and field of a malformed line, and skips it with skipInvalid', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'cl-audit-'));
    const file = join(directory, 'broken.jsonl');
    const lines = (await import('node:fs/promises')).readFile(FIXTURE, 'utf8');
    const text = (await lines).split('\n');
    text.splice(
      5,
      0,
      '{"type": "user", "uuid": "x-1", "sessionId": "s", "message": {"content": 42}}',
      'not json at all',
    );
    await writeFile(file, text.join('\n'));
    const failure = await auditFile(file).catch((error: unknown) => error);
    expect(TranscriptParseError.isInstance(failure)).toBe(true);
    expect((failure as Error).message).toContain(`${file}:6: field "message.content"`);
    const skipped: string[] = [];
    const audit = await auditFile(file, { skipInvalid: true, onSkip: (error) => skipped.push(error.message) });
    expect(audit.skipped).toBe(2);
    expect(skipped[1]).toContain(`${file}:7: field "(line)"`);
    expect(audit.sessions[0]?.compactions[0]?.futureNeeded).toHaveLength(7);
  });

  it('says which file is missing', async () => {
    await expect(auditFile('/nonexistent/session.jsonl')).rejects.toThrow(
      /\/nonexistent\/session\.jsonl: cannot read the transcript/,
    );
  });
});
