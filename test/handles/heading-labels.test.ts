/**
 * Headings that open their line with a word a prose label never holds elsewhere ("From mirror: …", "After cutover:
 * …"): the heading is the label whole, so two headings that share their last word ("From mirror", "To mirror") stay
 * two facts, and a longer binding of the same value elsewhere does not hide this one.
 */
import { describe, expect, it } from 'vitest';
import { extractHandles } from '../../src/handles/extract.js';
import { bindingOf } from '../../src/handles/supersession.js';

const bindings = (text: string) =>
  extractHandles(text)
    .filter((handle) => handle.kind === 'assignment' && /\s/.test(handle.text))
    .map((handle) => handle.text);

describe('a heading that opens its line', () => {
  it('keeps a first word that is a preposition or a stop word', () => {
    const text = 'Sync report:\n  From mirror: /srv/mirrors/eu-3/pkgs\n  To mirror: /srv/mirrors/us-1/pkgs\n';
    expect(bindings(text)).toEqual(['From mirror: /srv/mirrors/eu-3/pkgs', 'To mirror: /srv/mirrors/us-1/pkgs']);
  });

  it('keeps it after a list marker', () => {
    expect(bindings('- After cutover: db-rw-9.internal\n')).toEqual(['After cutover: db-rw-9.internal']);
  });

  it('binds a branch with the heading word before it, after markup the view blanks out', () => {
    expect(bindings('<cmd-out>On branch team/fix-204-retry\nnothing to commit</cmd-out>')).toEqual([
      'On branch team/fix-204-retry',
    ]);
  });

  it('reads the whole heading as the label, for supersession', () => {
    expect(bindingOf({ kind: 'assignment', text: 'From mirror: /srv/mirrors/eu-3/pkgs' })).toMatchObject({
      label: 'from mirror',
      value: '/srv/mirrors/eu-3/pkgs',
    });
  });

  it('keeps a fourth word that opens the heading (fails before `opensHeading`: the label lost its first word)', () => {
    const text = 'Folder created successfully at: /srv/app/cache-7\nLog file saved at: /srv/app/out-2.txt\n';
    expect(bindings(text)).toEqual([
      'Folder created successfully at: /srv/app/cache-7',
      'Log file saved at: /srv/app/out-2.txt',
    ]);
    expect(bindings('We saw the folder created successfully at: /srv/app/cache-7')).toEqual([
      'created successfully at: /srv/app/cache-7',
    ]);
  });

  it('does not take a stop word inside a sentence, or a lower-case one', () => {
    expect(bindings('We copied it from mirror: /srv/mirrors/eu-3/pkgs today.')).toEqual([
      'mirror: /srv/mirrors/eu-3/pkgs',
    ]);
    expect(bindings('from mirror: /srv/mirrors/eu-3/pkgs')).toEqual(['mirror: /srv/mirrors/eu-3/pkgs']);
  });
});
