import { describe, expect, it } from 'vitest';
import { extractHandles } from '../../src/handles/extract.js';

const assignments = (text: string) =>
  extractHandles(text)
    .filter((handle) => handle.kind === 'assignment')
    .map((handle) => handle.text);

describe('interface captions: the quoted words of a button or a control and the element noun after them', () => {
  it.each([
    ['only the last page is listed and a `Load older items` control is present', '`Load older items` control'],
    ['Press the "Sign out everywhere" button to end every session', '"Sign out everywhere" button'],
    ["the 'Retry' link reloads the page", "'Retry' link"],
    ['two "Show less" buttons appear', '"Show less" buttons'],
  ])('binds %j', (text, binding) => {
    expect(assignments(text)).toEqual([binding]);
  });

  it.each([
    // a quoted word followed by a noun that is no interface element
    'the "Retry" policy is wrong',
    // lower case: a code word, not a caption
    'the `submit` button handler',
    // more than six words
    'a "This is a very long caption for a" button',
    // no element noun
    'it printed "Show more"',
  ])('binds nothing in %j', (text) => {
    expect(assignments(text)).toEqual([]);
  });
});
