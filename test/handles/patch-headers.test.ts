/**
 * An `apply_patch` file header (`*** Update File: …`, `*** Add File: …`, `*** Delete File: …`, `*** Move to: …`) names
 * the file the patch edits: the extractor reads it as a path, never as a `label: value` binding (issue 38).
 */
import { describe, expect, it } from 'vitest';
import { extractHandles } from '../../src/handles/extract.js';

const found = (text: string) => extractHandles(text).map((handle) => `${handle.kind} ${handle.text}`);

const PATCH = [
  '*** Begin Patch',
  '*** Update File: src/orders/refund-window.ts',
  '@@',
  '-export const days = 14;',
  '+export const days = 30;',
  '*** Add File: Dockerfile',
  '+FROM node:20',
  '*** Update File: docs/refunds.md',
  '*** Move to: docs/policies/refunds.md',
  '*** Delete File: scripts/old-refunds.sh',
  '*** End Patch',
].join('\n');

describe('an apply_patch file header', () => {
  it('is the path it names, with no header binding', () => {
    const handles = found(PATCH);
    expect(handles).toEqual(
      expect.arrayContaining([
        'path src/orders/refund-window.ts',
        'path docs/refunds.md',
        'path docs/policies/refunds.md',
        'path scripts/old-refunds.sh',
      ]),
    );
    expect(handles.filter((handle) => /File:|Move to:/.test(handle))).toEqual([]);
  });

  it('is a path even when nothing else would read its file as one (`Dockerfile`)', () => {
    expect(found(PATCH)).toContain('path Dockerfile');
  });

  it('reads the same inside a JSON string of a tool call, its file ending before the escaped line break', () => {
    const call = JSON.stringify({ input: PATCH });
    const handles = extractHandles(call);
    const paths = handles.filter((handle) => handle.kind === 'path').map((handle) => handle.text);
    expect(paths).toEqual(
      expect.arrayContaining(['src/orders/refund-window.ts', 'Dockerfile', 'docs/policies/refunds.md']),
    );
    expect(handles.some((handle) => handle.kind === 'assignment' && /File:|Move to:/.test(handle.text))).toBe(false);
    for (const handle of handles) expect(call.slice(handle.start, handle.end)).toBe(handle.text);
  });

  it('leaves a heading that only looks alike a binding ("Update notes: docs/refunds.md")', () => {
    expect(found('Update notes: docs/refunds.md')).toContain('assignment Update notes: docs/refunds.md');
    expect(found('**Update File:** docs/refunds.md').some((handle) => handle.startsWith('path docs/refunds.md'))).toBe(
      true,
    );
  });
});
