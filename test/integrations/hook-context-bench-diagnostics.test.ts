/**
 * The diagnostics `hook-context-entire` writes beside each dumped context (bench/quality/hook-misses.ts): per missing
 * future-needed handle, what kind of token it is, why it is missing, and where it was said before the compaction.
 * They do not change the score: `hookMisses` counts the same causes `missCauses` names.
 */
import { describe, expect, it } from 'vitest';
import { hookMisses, missCauses, missClass, whereSaid } from '../../bench/quality/hook-misses.js';
import type { TranscriptMessage } from '../../src/ingest/messages.js';
import { handleAt } from '../helpers.js';

describe('missClass', () => {
  it('tells letter-only compounds and sed print ranges from names', () => {
    expect(missClass('force-pushes')).toBe('letter-only compound');
    expect(missClass('before/after')).toBe('letter-only compound');
    expect(missClass('260p')).toBe('sed print range');
    expect(missClass('p260')).toBe('name');
    expect(missClass('src/a.ts')).toBe('name');
  });
});

describe('missCauses', () => {
  it('names each cause with the place of the best holder, agreeing with hookMisses', () => {
    const cut = handleAt('packages/core/src/types.ts', 'path');
    const shown = handleAt('svc-12');
    const stored = handleAt('auto-merge', 'identifier');
    const ranked = [shown, cut];
    const context = { text: 'identifier: svc-12', shown: [shown], ranked };
    const causes = missCauses(['packages/core', 'auto-merge', 'as-is'], context, [...ranked, stored]);
    expect(causes.get('packages/core')).toEqual({ cause: 'cut by the budget', rank: 1 });
    expect(causes.get('auto-merge')).toEqual({ cause: 'not a candidate' });
    expect(causes.get('as-is')).toEqual({ cause: 'not extracted' });
    const counts = hookMisses(['packages/core', 'auto-merge', 'as-is', 'svc-12'], '', context, [...ranked, stored]);
    expect([counts.cutByBudget, counts.notCandidate, counts.notExtracted, counts.missing]).toEqual([1, 1, 1, 3]);
  });
});

describe('whereSaid', () => {
  it('counts the messages holding a token by source: user, harness, assistant text, tool call, tool output', () => {
    const messages: TranscriptMessage[] = [
      { role: 'user', content: 'fix src/a.ts' },
      { role: 'user', content: 'AGENTS.md names src/a.ts', source: 'harness' },
      {
        role: 'assistant',
        content: 'reading src/a.ts',
        toolCalls: [{ id: 'c1', name: 'exec_command', arguments: JSON.stringify({ cmd: "sed -n '1,260p' src/a.ts" }) }],
      },
      { role: 'tool', content: '1 export const a = 1; // src/a.ts', toolCallId: 'c1' },
      { role: 'tool', content: 'nothing here', toolCallId: 'c2' },
    ];
    expect(whereSaid('src/a.ts', messages)).toBe('user 1, harness 1, assistant text 1, tool call 1, tool output 1');
    expect(whereSaid('260p', messages)).toBe('tool call 1');
    expect(whereSaid('src/b.ts', messages)).toBe('nowhere verbatim');
  });
});
