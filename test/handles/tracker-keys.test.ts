import { describe, expect, it } from 'vitest';
import { extractHandles } from '../../src/handles/extract.js';
import { supersededHandles } from '../../src/handles/supersession.js';
import type { Handle } from '../../src/types.js';

const assignments = (text: string) =>
  extractHandles(text)
    .filter((handle) => handle.kind === 'assignment')
    .map((handle) => handle.text);

/** The handles of `text` as said at `seq` by the user. */
function handlesAt(text: string, seq: number): Handle[] {
  return extractHandles(text).map((handle) => ({
    ...handle,
    spanId: `sha256:${seq}`,
    seq,
    role: 'user',
    tokens: 3,
  }));
}

describe('tracker keys: a tracker word alone before a key says what the key is', () => {
  it.each([
    ['take a peek at linear KAP-342, we can tackle it in this session', ['linear KAP-342']],
    ['we start on ticket OPS-7 next', ['ticket OPS-7']],
    ['the bug is tracked as jira PAY-12 for now', ['jira PAY-12']],
    ['the fix for issue `WEB-3` landed', ['issue `WEB-3`']],
  ])('binds %j', (text, expected) => {
    expect(assignments(text)).toEqual(expected);
  });

  it.each([
    // a verb alone before a key is no label
    'fix ENT-5 before the release',
    'we merged OPS-7 yesterday',
    // a standard's name is no tracker key
    'the issue UTF-8 decoding raised',
    'store the date as ISO-8601 in the log',
  ])('binds nothing in %j', (text) => {
    expect(assignments(text)).toEqual([]);
  });

  it('reads a message re-sent with another key as a rebinding: the first key leaves with its binding', () => {
    const first = handlesAt('have a look at linear QA-41, we will work on that here', 1);
    const second = handlesAt('have a look at linear QE-41, we will work on that here', 3);
    const superseded = [...supersededHandles([...first, ...second])].map((handle) => handle.text).sort();
    expect(superseded).toEqual(['QA-41', 'linear QA-41']);
  });
});
