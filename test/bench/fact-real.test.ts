/**
 * `quality-facts-real` on a transcript this test writes itself: hand labels are checked against their file (a label
 * whose value is not on its line fails, naming file, line and label), lines map to the messages they produced, and a
 * fact is scored on the window just before the line that needs it, by `fact-score.ts`'s notions.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createO200kCounter } from '../../src/index.js';
import { hookPoints, replayTexts, scoreUnit, unitsOf } from '../../bench/quality/fact-real-score.js';
import type { RealLabel } from '../../bench/quality/real-facts.js';
import { insidePathOnly, labelProblems, loadRealLabels, messageIndexAt } from '../../bench/quality/real-facts-load.js';
import { bindsOnLine } from '../../bench/quality/fact-score.js';
import { claudeSession, jsonl } from '../integrations/claude-code-fixture.js';

let dataDir: string;
const FILE = 'mini/session.jsonl';

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'fact-real-'));
  await mkdir(join(dataDir, 'mini'));
  const session = claudeSession('mini-1', '/work/shop');
  await writeFile(
    join(dataDir, FILE),
    jsonl([
      session.user('The staging database listens on port 6543; the audit replica on port 7788.'), // line 1
      session.assistant('Noted both ports.'), // line 2
      session.user('Never run migrations on Fridays. Also the pool size is 40.'), // line 3
      session.assistant('Understood.'), // line 4
      session.user('Correction: the pool size is now 64.'), // line 5
      session.boundary(), // line 6
      session.summary('Working on the shop database settings.'), // line 7
      session.toolUse('t1', 'psql -p 6543 -c "select 1"'), // line 8
      session.toolResult('t1', 'ok'), // line 9
    ]),
  );
});

afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

const label = (overrides: Partial<RealLabel>): RealLabel => ({
  file: FILE,
  kind: 'value',
  line: 1,
  labels: ['staging database'],
  value: '6543',
  need: 8,
  ...overrides,
});

const LABELS: readonly RealLabel[] = [
  label({ kind: 'sibling', pair: 'ports' }),
  label({ kind: 'sibling', pair: 'ports', labels: ['audit replica'], value: '7788' }),
  label({ kind: 'update', line: 5, labels: ['pool size'], value: '64', old: { line: 3, value: '40' } }),
  label({ kind: 'rule', line: 3, labels: [], value: 'Never run migrations on Fridays', gist: 'no Friday migrations' }),
];

describe('loadRealLabels', () => {
  it('loads labels that match their lines and maps lines to messages', async () => {
    const sessions = await loadRealLabels(dataDir, LABELS);
    const session = sessions.get(FILE);
    expect(session?.compactions.map((each) => [each.boundary, each.line])).toEqual([[6, 7]]);
    if (!session) return;
    expect(session.messageLines[messageIndexAt(session, 5)]).toBe(5);
    expect(session.messageLines[messageIndexAt(session, 6)]).toBe(8);
  });

  it('fails naming file, line and label when a value is not on its line', async () => {
    const wrong = label({ line: 2, labels: ['staging database'], value: '6543' });
    const error = await loadRealLabels(dataDir, [...LABELS, wrong]).then(
      () => undefined,
      (thrown: unknown) => thrown as Error,
    );
    expect(error?.message).toContain(`${FILE}:2`);
    expect(error?.message).toContain('value not on the line');
    expect(error?.message).toContain('staging database');
    expect(error?.message).not.toContain(`${FILE}:1:`);
  });

  it('fails when an old value or a label word is missing, or the need is not later', async () => {
    const bad = [
      label({ kind: 'update', line: 5, labels: ['pool size'], value: '64', old: { line: 3, value: '41' } }),
      label({ labels: ['prod database'] }),
      label({ need: 1 }),
    ];
    const error = await loadRealLabels(dataDir, bad).catch((thrown: unknown) => thrown as Error);
    expect(String(error)).toContain(`${FILE}:3`);
    expect(String(error)).toContain('old value "41"');
    expect(String(error)).toContain('label "prod database" not on the line');
    expect(String(error)).toContain('need line 1');
  });
});

describe('a value inside a path', () => {
  it('is refused as a label (the scorer never binds it) unless the label takes the whole path', () => {
    const line = jsonl([
      claudeSession('mini-2', '/work/shop').user('the newest run log is at var/runs/7f3a9c/out-0412.log'),
    ]);
    const part = label({ file: 'mini/run.jsonl', labels: ['newest run log'], value: 'out-0412.log', need: 2 });
    const whole = { ...part, value: 'var/runs/7f3a9c/out-0412.log' };
    const lines = [...line.trimEnd().split('\n'), ''];
    expect(labelProblems(part, lines).join('\n')).toContain('value only inside a path on the line');
    expect(labelProblems(whole, lines)).toEqual([]);
    expect(bindsOnLine('the newest run log is at var/runs/7f3a9c/out-0412.log', part.value, part.labels)).toBe(false);
    expect(bindsOnLine('the newest run log is at var/runs/7f3a9c/out-0412.log', whole.value, whole.labels)).toBe(true);
  });

  it('is a value of its own when it also stands alone on the line', () => {
    expect(insidePathOnly('logs go to var/runs/out.log; tail out.log', 'out.log')).toBe(false);
    expect(insidePathOnly('logs go to var/runs/out.log', 'out.log')).toBe(true);
    expect(insidePathOnly('logs go to /var/runs/out.log', '/var/runs/out.log')).toBe(false);
  });
});

describe('scoring', () => {
  it('scores bound facts, pairs, updates and rules on a replayed window', async () => {
    const session = (await loadRealLabels(dataDir, LABELS)).get(FILE);
    if (!session) throw new Error('not loaded');
    const units = unitsOf(session, LABELS);
    expect(units.map((unit) => unit.kind).sort()).toEqual(['rule', 'sibling', 'update']);
    const texts = await replayTexts(
      session,
      units.map((unit) => unit.before),
      32000,
      createO200kCounter(),
    );
    for (const unit of units) {
      const text = texts.get(unit.before)?.ledger ?? '';
      // The window before the need line holds what was said before it, and not the line that needs it.
      expect(text).not.toContain('psql -p');
      const { score } = scoreUnit(text, unit);
      if (unit.kind === 'sibling') expect([score.pairs, score.pairsBound]).toEqual([1, 1]);
      if (unit.kind === 'update') expect([score.updates, score.resolved, score.stale]).toEqual([1, 1, 0]);
      if (unit.kind === 'rule') expect([score.rules, score.rulesKept]).toEqual([1, 1]);
    }
  });

  it('tells a bound value from a bare string, and a stale value from a resolved one', async () => {
    const session = (await loadRealLabels(dataDir, LABELS)).get(FILE);
    if (!session) throw new Error('not loaded');
    const units = unitsOf(session, LABELS);
    const pair = units.find((unit) => unit.kind === 'sibling');
    const update = units.find((unit) => unit.kind === 'update');
    if (!pair || !update) throw new Error('units missing');
    const bare = scoreUnit('ports: 6543 | 7788\nthe staging database and the audit replica', pair);
    expect(bare.score.bound).toBe(0);
    expect(bare.valuesPresent).toBe(2);
    const stale = scoreUnit('pool size 64\npool size: 40', update);
    expect([stale.score.resolved, stale.score.stale]).toEqual([0, 1]);
    const marked = scoreUnit('pool size: 40\npool size now 64 (was 40)', update);
    expect([marked.score.resolved, marked.score.stale]).toEqual([1, 0]);
  });

  it('builds the hook context after the compaction with the summary in it', async () => {
    const session = (await loadRealLabels(dataDir, LABELS)).get(FILE);
    if (!session) throw new Error('not loaded');
    const points = await hookPoints(session, dataDir, createO200kCounter());
    expect(points.map((point) => point.boundary)).toEqual([6]);
    expect(points[0]?.text).toContain('Working on the shop database settings.');
  });
});

describe('labelSetFor', () => {
  it('measures the shared labels in a folder that holds their sessions, the outside labels in one that holds those', async () => {
    const { labelSetFor } = await import('../../bench/quality/real-facts-set.js');
    const { OUTSIDE_LABELS } = await import('../../bench/quality/real-facts-outside.js');
    const { REAL_LABELS } = await import('../../bench/quality/real-facts.js');
    // An empty folder: the shared set, so its load fails naming the missing file.
    expect(labelSetFor(dataDir).name).toBe('shared');
    const outside = OUTSIDE_LABELS[0]?.file ?? '';
    await mkdir(join(dataDir, 'entire'), { recursive: true });
    await writeFile(join(dataDir, outside), '');
    expect(labelSetFor(dataDir)).toMatchObject({ name: 'outside', labels: OUTSIDE_LABELS });
    // A folder with a shared session as well: the shared set wins, and its missing files still fail the load.
    const shared = REAL_LABELS[0]?.file ?? '';
    await writeFile(join(dataDir, shared), '');
    const set = labelSetFor(dataDir);
    expect(set.name).toBe('shared');
    await expect(loadRealLabels(dataDir, set.labels)).rejects.toThrow(/ENOENT|do not match/);
  });

  it('keeps the two sets apart: no outside session is a shared-data session', async () => {
    const { OUTSIDE_LABELS } = await import('../../bench/quality/real-facts-outside.js');
    const { REAL_LABELS } = await import('../../bench/quality/real-facts.js');
    const shared = new Set(REAL_LABELS.map((each) => each.file));
    expect(OUTSIDE_LABELS.length).toBeGreaterThan(20);
    expect(OUTSIDE_LABELS.filter((each) => shared.has(each.file))).toEqual([]);
  });
});

describe('marksReplaced (the stale-value check of fact-score.ts)', () => {
  it('excuses an old value only when the mark is about it', async () => {
    const { marksReplaced } = await import('../../bench/quality/fact-score.js');
    expect(marksReplaced('pool size 64 (was 44)', '44')).toBe(true);
    expect(marksReplaced('we moved from ledger/drafts to ledger/archive/v2', 'ledger/drafts')).toBe(true);
    expect(marksReplaced('db-ro-3 → db-ro-10', 'db-ro-3')).toBe(true);
    // A `from FILE:` group label and a "to" elsewhere on the line say nothing about the value.
    const grouped =
      'from /home/dev/orbit/internal/sync/branch_hooks.go: copies the checkpoint branches to ledger/drafts';
    expect(marksReplaced(grouped, 'ledger/drafts')).toBe(false);
    expect(marksReplaced(`${'x'.repeat(80)} ledger/drafts ${'y'.repeat(80)} replaced`, 'ledger/drafts')).toBe(false);
  });
});
