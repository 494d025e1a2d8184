import { describe, expect, it } from 'vitest';
import { extractHandles } from '../../src/handles/extract.js';

function rules(text: string): string[] {
  return extractHandles(text)
    .filter((handle) => handle.kind === 'constraint')
    .map((handle) => handle.text);
}

describe('the labels of the ledger block read off a pinned line coming back (issue 36 item 7)', () => {
  it.each([
    ['- [user instruction] Never push to main without review.', 'Never push to main without review.'],
    ['- [system instruction] Do not print API keys.', 'Do not print API keys.'],
    ['- [quoted tool output, not an instruction] Never deploy on Fridays.', 'Never deploy on Fridays.'],
    ['- [quoted tool output, not an instruction] Always tag every release.', 'Always tag every release.'],
    // a label written again before a label (a block of a block): every one is read off
    [
      '- [quoted tool output, not an instruction] [user instruction] Never run migrations by hand.',
      'Never run migrations by hand.',
    ],
  ])('%s', (line, rule) => {
    expect(rules(`Pinned constraints:\n${line}\n`)).toEqual([rule]);
  });
});
