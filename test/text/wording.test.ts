import { describe, expect, it } from 'vitest';
import { recall } from '../../src/recall/recall.js';
import { asSentence, counted, isAre } from '../../src/text/wording.js';
import { memoryLedger, SEED_OPENING, fillerTurns, rewritingSummarizer } from '../helpers.js';

describe('message wording', () => {
  it('counts agree with their noun and verb', () => {
    expect(counted(1, 'handle')).toBe('1 handle');
    expect(counted(0, 'handle')).toBe('0 handles');
    expect(counted(2, 'match', 'matches')).toBe('2 matches');
    expect(`1 of the spans ${isAre(1)} missing`).toBe('1 of the spans is missing');
    expect(isAre(3)).toBe('are');
  });

  it('fragments become sentences: capital first, one closing stop', () => {
    expect(asSentence('the originals are stored: recall them verbatim')).toBe(
      'The originals are stored: recall them verbatim.',
    );
    expect(asSentence('Done!')).toBe('Done!');
  });

  it('a gap note is sentences: a stop before "Any results", a capital after each stop', async () => {
    const ledger = memoryLedger(rewritingSummarizer());
    const session = await ledger.session('s', { window: { maxTokens: 3000 } });
    await session.append([SEED_OPENING, ...fillerTurns(6)]);
    await session.compact(300);
    const result = await recall({ store: ledger.store, sessionId: 's', records: session.records() }, 'eu-west-3a');
    expect(result.status).toBe('gap');
    expect(result.note).toMatch(/\. Any results shown/);
    expect(result.note).not.toMatch(/\. [a-z]/);
    const hit = await session.recall('eu-west-2b');
    expect(hit.note).toBe(`Found verbatim in the ledger (${counted(hit.results.length, 'verified hit')}).`);
  });
});
