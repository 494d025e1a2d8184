import { describe, expect, it } from 'vitest';
import { memoryLedger } from '../helpers.js';

/**
 * A summary of a summary: the user's task, quoted as a claim of the first record, must stay
 * the user's words in the records that carry it on (it used to come back as an assistant line).
 */
describe('claims carried into a later compaction keep the role of the span they quote', () => {
  it("keeps the user's task under Task through cascaded compactions", async () => {
    const ledger = memoryLedger();
    const session = await ledger.session('roles', { window: { maxTokens: 1200 } });
    const task = 'Please make the nightly export job retry three times before it pages anyone.';
    // Two sentences and no handle: the claim is not the whole span and no handle names the span's role.
    await session.append({ role: 'user', content: `The export has been noisy all week. ${task}` });
    let turn = 0;
    while (session.records().filter((record) => record.type === 'summary').length < 3) {
      await session.append({
        role: 'assistant',
        content: `Step ${turn}: I read the scheduler notes for batch ${turn} and the export queue looked healthy in that window, so I moved on to the next batch.`,
      });
      await session.render();
      expect(++turn).toBeLessThan(400);
    }
    const active = session.activeRecord();
    expect(active?.depth).toBeGreaterThan(1);
    const lines = (active?.summary ?? '').split('\n');
    const title = lines.findIndex((line) => line.startsWith('Task'));
    expect(title, active?.summary).toBeGreaterThanOrEqual(0);
    const end = lines.findIndex((line, index) => index > title && !line.startsWith('- '));
    expect(lines.slice(title + 1, end === -1 ? undefined : end)).toContain(`- ${task}`);
  });
});
