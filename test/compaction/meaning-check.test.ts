import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { meaningFindings, polarityFlip } from '../../src/compaction/meaning-check.js';
import { verifySummary } from '../../src/compaction/verify.js';
import { readEvents } from '../../src/importers/registry.js';
import type { SourceUnit } from '../../src/summarizers/summarizer.js';
import type { Claim } from '../../src/types.js';
import { DATA } from '../data-dir.js';
import { handleAt, memoryLedger } from '../helpers.js';

const SOURCE = 'The eu-west-1 replica is read-only, do not target it. I rejected deleting the nightly backups.';
const UNITS: SourceUnit[] = [{ text: SOURCE, spanIds: ['sha256:a'], role: 'user', seq: 0, origin: 'original' }];

function check(text: string, spanIds: readonly string[] = ['sha256:a']) {
  const claims: Claim[] = [{ text, spanIds }];
  return verifySummary({ summary: text, claims }, UNITS, []).filter(
    (finding) => finding.code === 'polarity-flip' || finding.code === 'contradicts-constraint',
  );
}

describe('meaning checks', () => {
  it('finds the inversions of the issue: writable for read-only, approved for rejected, a dropped "do not"', () => {
    expect(check('eu-west-1 is writable; target it')[0]?.message).toMatch(
      /sha256:a.*"do not target", claim "target" without the negation/,
    );
    expect(check('The user approved deleting the nightly backups')[0]?.message).toMatch(/rejected.*approved/);
    expect(check('Target eu-west-1 for the migration')[0]?.message).toContain('"do not target"');
  });

  it('reads through look-alike letters and invisible characters', () => {
    expect(check('eu-west-1 is wr\u200Bit\u0430ble')).toHaveLength(1);
  });

  it('reads contracted negations', () => {
    expect(polarityFlip("you can't write to the archive bucket", 'write to the archive bucket')?.words).toContain(
      '"can\'t write"',
    );
    expect(polarityFlip("we won't rotate the keys", 'we will rotate the keys')?.pivot).toBe('rotate');
  });

  it('finds a negation the claim adds to a plain source sentence', () => {
    expect(polarityFlip('deploy the api to eu-west-2b', 'do not deploy to eu-west-2b')?.words).toContain(
      '"do not deploy"',
    );
    expect(polarityFlip('the feature flag is enabled', 'the feature flag is disabled')?.words).toContain('enablement');
  });

  it('leaves faithful claims, verbatim copies and other subjects alone', () => {
    expect(check('The user refused to delete the nightly backups')).toEqual([]);
    expect(check('Deleting the nightly backups was not approved')).toEqual([]);
    expect(check('The eu-west-1 replica is read-only, do not target it.')).toEqual([]);
    expect(check('The build cache is writable')).toEqual([]);
    expect(check('Metrics for the dashboard were approved')).toEqual([]);
    expect(polarityFlip('it is not only fast but small', 'it is fast')).toBeUndefined();
    expect(polarityFlip('should we not deploy today?', 'deploy today')).toBeUndefined();
  });

  it('checks a claim against a pinned instruction that shares a handle with it, not against quoted ones', () => {
    const rule = handleAt('Never write to eu-west-1: it is read-only.', 'constraint', 'user');
    const quoted = handleAt('Never write to eu-west-1: it is read-only.', 'constraint', 'tool');
    const claims: Claim[] = [{ text: 'eu-west-1 is writable now', spanIds: ['sha256:other'] }];
    const texts = new Map([['sha256:other', ['Health checks passed.']]]);
    const [finding] = meaningFindings(claims, texts, [rule]);
    expect(finding?.code).toBe('contradicts-constraint');
    expect(finding?.message).toContain(rule.spanId);
    expect(verifySummary({ summary: '', claims }, [], [quoted]).map((item) => item.code)).not.toContain(
      'contradicts-constraint',
    );
    expect(meaningFindings([{ text: 'eu-west-2b is writable', spanIds: [] }], new Map(), [rule])).toEqual([]);
  });
});

const sessions = DATA
  ? readdirSync(path.join(DATA, 'claude-code'))
      .filter((name) => name.endsWith('.jsonl') && !name.endsWith('.compact-agent.jsonl'))
      .sort()
      .map((name) => path.join(DATA ?? '', 'claude-code', name))
  : [];

describe.skipIf(sessions.length === 0)('meaning checks on a real session with the extractive summarizer', () => {
  it.each(sessions)(
    'never flags a record of %s replayed at a 4,000-token window',
    async (file) => {
      const session = await memoryLedger().session('meaning-replay', { window: { maxTokens: 4000 } });
      for await (const event of readEvents(file, { format: 'claude-code' })) {
        if (event.type !== 'message') continue;
        await session.append(event.message);
        await session.compactIfDue();
      }
      const records = session.records().filter((record) => record.type === 'summary');
      const flagged = records.flatMap((record) =>
        record.findings.filter((item) => item.code === 'polarity-flip' || item.code === 'contradicts-constraint'),
      );
      const claims = records.reduce((total, record) => total + record.claims.length, 0);
      console.log(
        `${path.basename(file)}: ${records.length} records, ${claims} claims, ${flagged.length} meaning findings`,
      );
      expect(records.length).toBeGreaterThan(5);
      expect(flagged).toEqual([]);
    },
    600_000,
  );
});
