import { describe, expect, it } from 'vitest';
import { extractHandles } from '../../src/handles/extract.js';

const handles = (text: string, kind: string) =>
  extractHandles(text)
    .filter((handle) => handle.kind === kind)
    .map((handle) => handle.text);

describe('tracker scopes: a `Key:Value` qualifier after a tracker word says where the item goes', () => {
  it.each([
    ['can you write me a linear issue in Project:Alpha to log this', 'linear issue in Project:Alpha'],
    ['log a jira improvement - Team:Core', 'jira improvement - Team:Core'],
    ["let's add a ticket for that please Project:Web", 'ticket for that please Project:Web'],
  ])('binds %j', (text, binding) => {
    expect(handles(text, 'assignment')).toEqual([binding]);
    expect(handles(text, 'identifier')).toContain(binding.slice(binding.lastIndexOf(' ') + 1));
  });

  it.each([
    // no tracker word on the clause
    'the filter Project:Alpha matched nothing',
    // the tracker word is too far before it
    'the issue was that we never really looked at what Project:Alpha meant',
    // another sentence
    'I filed the issue. Project:Alpha is next.',
    // lower-case qualifiers are task names and CSS, not scopes
    'add an issue for test:ci and a:hover',
    // attached to a word or a path
    'see the issue at https://x.dev/Project:Alpha',
  ])('binds nothing in %j', (text) => {
    expect(handles(text, 'assignment').filter((binding) => binding.includes(':'))).toEqual([]);
  });
});
