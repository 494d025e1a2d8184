import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AuditDocument } from '../../src/audit/types.js';
import { FIXTURE, REAL_FILES } from './paths.js';
import { runCli as cli } from '../cli/run-cli.js';

describe('context-ledger audit', () => {
  it('prints one JSON document on stdout and, as replay --json, no progress', async () => {
    const result = await cli(['audit', FIXTURE, '--json']);
    expect(result.code).toBe(0);
    const document = JSON.parse(result.stdout) as AuditDocument;
    expect(Object.keys(document)).toEqual(['files']);
    const file = document.files[0];
    expect(file).toMatchObject({ file: FIXTURE, format: 'claude-code', skipped: 0 });
    const compaction = file?.sessions[0]?.compactions[0];
    expect(Object.keys(compaction ?? {}).sort()).toEqual([
      'agentSummaryTokens',
      'futureNeeded',
      'handlesBefore',
      'keptByAgent',
      'label',
      'ledger',
      'lostConstraints',
      'seqBoundary',
      'summarizer',
      'userConstraints',
    ]);
    expect(Object.keys(compaction?.futureNeeded[0] ?? {}).sort()).toEqual([
      'firstLabel',
      'firstSeq',
      'inLedgerCheckpoint',
      'inLedgerWindow',
      'keptByAgent',
      'kind',
      'ledgerRecall',
      'role',
      'text',
    ]);
    expect(result.stderr).toBe('');
  });

  it('prints a readable summary without --json, and nothing on stderr with --quiet', async () => {
    const result = await cli(['audit', FIXTURE, '--quiet']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain('future-needed handles (used after the boundary, seen before it): 7');
    expect(result.stdout).toContain("lost by the agent's summary (6):");
  });

  it('fails with a TRANSCRIPT_PARSE error naming the file and line', async () => {
    const result = await cli(['audit', join(process.cwd(), 'package.json'), '--format', 'claude-code', '--quiet']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/TRANSCRIPT_PARSE: .*package\.json:1: field "\(line\)"/);
  });
});

describe.skipIf(REAL_FILES.length === 0)(
  `audit of the real Claude Code sessions${REAL_FILES.length === 0 ? ' (skipped: ../shared/data/claude-code is absent)' : ''}`,
  () => {
    it('finds each compaction, the future-needed handles, and context-ledger keeps at least as many in the window', async () => {
      const result = await cli(['audit', ...REAL_FILES, '--json']);
      expect(result.code, result.stderr).toBe(0);
      const document = JSON.parse(result.stdout) as AuditDocument;
      expect(document.files).toHaveLength(REAL_FILES.length);
      for (const file of document.files) {
        const session = file.sessions[0];
        expect(file.sessions).toHaveLength(1);
        expect(session?.compactions.length).toBeGreaterThanOrEqual(1);
        for (const compaction of session?.compactions ?? []) {
          const keptByAgent = compaction.futureNeeded.filter((handle) => handle.keptByAgent).length;
          expect(compaction.futureNeeded.length).toBeGreaterThan(0);
          expect(compaction.ledger.tokens).toBeLessThanOrEqual(compaction.agentSummaryTokens);
          expect(compaction.ledger.futureNeededInWindow).toBeGreaterThanOrEqual(keptByAgent);
          expect(compaction.ledger.futureNeededReachable).toBe(compaction.futureNeeded.length);
          process.stderr.write(
            `real audit ${session?.sessionId}: future-needed ${compaction.futureNeeded.length}, kept by Claude Code ${keptByAgent} (${compaction.agentSummaryTokens} tokens), ` +
              `context-ledger ${compaction.ledger.futureNeededInWindow} in window / ${compaction.ledger.futureNeededReachable} reachable (${compaction.ledger.tokens} tokens)\n`,
          );
        }
      }
    }, 300_000);
  },
);
