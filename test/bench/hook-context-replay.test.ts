/**
 * The `hook-context-entire` replay on a transcript it writes itself: each agent compaction is found, the hook context
 * is built from that compaction, and the yardstick counts a handle seen before the compaction and used after it only up
 * to the next compaction.
 */
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { replayCompactions } from '../../bench/quality/hook-context-replay.js';
import { claudeSession, jsonl } from '../integrations/claude-code-fixture.js';

let directory: string;

beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'hook-context-replay-'));
});

afterEach(async () => {
  vi.unstubAllEnvs();
  await rm(directory, { recursive: true, force: true });
});

function transcript(): string {
  const session = claudeSession('replay-1', '/work/app');
  return jsonl([
    session.user('Deploy the service with /srv/app/deploy-7.yaml please.'),
    session.toolUse('t1', 'cat /srv/app/deploy-7.yaml'),
    session.toolResult('t1', 'REGION_NAME=eu-west-3\nrollback: /srv/app/rollback-9.sh'),
    session.boundary(),
    session.summary('Working on the deploy of the service.'),
    session.toolUse('t2', 'kubectl apply -f /srv/app/deploy-7.yaml'),
    session.assistant('Applied with REGION_NAME=eu-west-3; ticket OPS-1234 is new.'),
    session.boundary(),
    session.summary('The deploy was applied from /srv/app/deploy-7.yaml.'),
    session.toolUse('t3', 'sh /srv/app/rollback-9.sh'),
  ]);
}

describe('replayCompactions', () => {
  it('measures each compaction with the context built from it, up to the next compaction', async () => {
    const file = join(directory, 'session.jsonl');
    await writeFile(file, transcript());
    const arms = [{ name: 'default' }, { name: 'tiny', budgetTokens: 100 }];
    const measures = await replayCompactions(file, 'claude-code', 'replay-1', directory, arms);
    expect(measures.map((measure) => measure.index)).toEqual([0, 1]);

    const [first, second] = measures;
    // Before the first compaction: the deploy file and the region, used after it; OPS-1234 was never seen before;
    // the rollback script is used only after the second compaction.
    expect(first?.needed).toBe(2);
    expect(first?.kept).toBe(0);
    expect(first?.arms[0]?.missing).toEqual([]);
    expect(first?.arms[0]?.present).toBe(2);
    expect(first?.arms[0]?.failure).toBeUndefined();
    // After the second compaction only the rollback script is used; it was seen before and is not in the summary.
    expect(second?.needed).toBe(1);
    expect(second?.kept).toBe(0);
    expect(second?.arms[0]?.present).toBe(1);
    for (const measure of measures)
      for (const arm of measure.arms) expect(arm.outputCharacters).toBeLessThanOrEqual(10_000);
  });

  it('writes its diagnostics into folders it creates, and a dump never turns into a hook failure', async () => {
    const file = join(directory, 'session.jsonl');
    await writeFile(file, transcript());
    const dump = join(directory, 'not', 'yet', 'there');
    const features = join(directory, 'features', 'nested', 'rows.jsonl');
    vi.stubEnv('HOOK_CONTEXT_DUMP', dump);
    vi.stubEnv('HOOK_CONTEXT_FEATURES', features);
    const measures = await replayCompactions(file, 'claude-code', 'replay-1', directory, [{ name: 'default' }]);
    for (const measure of measures) expect(measure.arms[0]?.failure).toBeUndefined();
    expect(measures[0]?.arms[0]?.present).toBe(2);
    const written = await readdir(dump);
    expect(written.length).toBeGreaterThan(0);
    const text = await readFile(join(dump, written[0] ?? ''), 'utf8');
    expect(text).toContain('[context-ledger]');
    expect(text).toContain('--- missing');
    expect((await readFile(features, 'utf8')).trim().split('\n').length).toBeGreaterThan(0);
  });
});
