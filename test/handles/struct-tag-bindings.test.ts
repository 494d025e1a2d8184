/**
 * Tagged struct fields: the key a field is written as (`json:"retry_limit,omitempty"`) is split from the field that
 * says what it is by the type, so the whole field line is its binding; code, so the same field name in another struct
 * replaces nothing. Fails on the code before `struct-tags.ts`: no assignment held the tag with its field.
 */
import { describe, expect, it } from 'vitest';
import { extractHandles } from '../../src/handles/extract.js';
import { isCodeAssignment, supersededHandles } from '../../src/handles/supersession.js';
import type { Handle } from '../../src/types.js';

const assignments = (text: string, toolOutput = false) =>
  extractHandles(text, { toolOutput })
    .filter((handle) => handle.kind === 'assignment')
    .map((handle) => handle.text);

function handlesAt(text: string, seq: number, role: Handle['role'] = 'user'): Handle[] {
  return extractHandles(text).map((handle) => ({ ...handle, spanId: `sha256:${seq}`, seq, role, tokens: 3 }));
}

describe('struct tag bindings', () => {
  it.each([
    ['```go\nRetryLimit int `json:"retry_limit,omitempty"`\n```', ['RetryLimit int `json:"retry_limit,omitempty"`']],
    ['\tOwners []*Owner `yaml:"owners" db:"owner_ids"` // who\n', ['Owners []*Owner `yaml:"owners" db:"owner_ids"`']],
    ['+\tLabels map[string]string `json:"label_set"`\n', ['Labels map[string]string `json:"label_set"`']],
  ])('binds the tag of %j to its field', (text, expected) => {
    expect(assignments(text)).toEqual(expected);
  });

  it('binds the field of a stated plan, not every field of a file a tool printed', () => {
    const text = 'type Plan struct {\n\tDraftPath string `json:"draft_path"`\n}';
    expect(assignments(text)).toEqual(['DraftPath string `json:"draft_path"`']);
    expect(assignments(text, true)).toEqual([]);
  });

  it.each([
    '-\tLegacyName string `json:"legacy_name"`',
    'the field `json:"x_y"` is set',
    'RetryLimit int `json:"retry_limit"` plus more words',
  ])('binds nothing in %j', (text) => {
    expect(assignments(text)).toEqual([]);
  });

  it('is code: the same field of another struct replaces nothing', () => {
    const first = handlesAt('ItemID string `json:"item_id"`', 1);
    const second = handlesAt('ItemID string `db:"owner_item_id"`', 2);
    const field = first.find((handle) => handle.kind === 'assignment');
    expect(field && isCodeAssignment(field)).toBe(true);
    expect(supersededHandles([...first, ...second]).size).toBe(0);
  });
});
