/**
 * An index entry that states a value a `from X to Y` binding of the same record replaced (a handle said again after
 * the change, such as a code comment read later) is shown with a note naming the change, as a summary line is: listed
 * bare, it would read as the current value. The handle itself stays verbatim.
 */
import { describe, expect, it } from 'vitest';
import type { Handle } from '../../src/types.js';
import { ledgerBlock } from '../../src/window/window.js';
import { markReplacedEntry, markReplacedValues } from '../../src/window/replaced-marks.js';
import { handleAt, summaryRecord } from '../helpers.js';

const change = handleAt('cutover from store/blue to store/green-2', 'assignment', 'user');

describe('index entries that state a replaced value', () => {
  it('are marked with the binding that replaced the value, in the window', () => {
    const later = handleAt('syncs records to store/blue', 'assignment', 'tool');
    const bare = handleAt('store/blue', 'identifier', 'tool');
    const handles: Handle[] = [change, later, bare, handleAt('store/green-2', 'identifier', 'user')];
    const text = ledgerBlock({ active: summaryRecord({ handles }), gaps: [], originals: [] }) ?? '';
    const note = '(replaced since: cutover from store/blue to store/green-2)';
    expect(text).toContain(`syncs records to store/blue ${note}`);
    expect(text).toContain(`store/blue ${note}`);
    expect(text).not.toContain(`store/green-2 ${note}`);
    expect(later.text).toBe('syncs records to store/blue');
  });

  it('leave the change itself, the new value and unrelated entries unmarked', () => {
    const handles = [change];
    expect(markReplacedEntry(change.text, handles)).toBe(change.text);
    expect(markReplacedEntry('store/green-2', handles)).toBe('store/green-2');
    expect(markReplacedEntry('store/blue-archive', handles)).toBe('store/blue-archive');
    expect(markReplacedEntry('store/blue', [])).toBe('store/blue');
  });

  it('do not mark a longer name that starts with the old one, in a summary line either', () => {
    const summary = '- Backups go to store/blue-archive and store/blue.old.';
    expect(markReplacedValues(summary, [change])).toBe(summary);
  });
});
