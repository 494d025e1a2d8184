import { describe, expect, it } from 'vitest';
import { InvalidInputError } from '../../src/errors.js';
import { checkAppend } from '../../src/stores/store-input.js';
import type { AppendEntry } from '../../src/stores/store.js';
import { entry } from './fixtures.js';

/** The sample entry with its one handle changed. */
function withHandle(change: Record<string, unknown>): AppendEntry[] {
  const sample = entry('user', 'deploy to eu-west-2b now', [{ text: 'eu-west-2b', kind: 'identifier' }]);
  return [{ ...sample, handles: sample.handles.map((handle) => ({ ...handle, ...change })) }];
}

function failure(entries: AppendEntry[]): InvalidInputError {
  try {
    checkAppend('s', 0, entries);
  } catch (error) {
    if (error instanceof InvalidInputError) return error;
    throw error;
  }
  throw new Error('checkAppend accepted the batch');
}

describe('checkAppend on handles', () => {
  it('accepts a well-formed handle', () => {
    expect(() => checkAppend('s', 0, withHandle({}))).not.toThrow();
  });

  it('names the field of a bad offset or token count, with the handle in the details', () => {
    for (const [change, field] of [
      [{ start: -1 }, 'handle.start'],
      [{ end: 2.5 }, 'handle.end'],
      [{ tokens: -3 }, 'handle.tokens'],
    ] as const) {
      const error = failure(withHandle(change));
      expect(error.message).toMatch(new RegExp(`^${field.replace('.', '\\.')} must be a non-negative integer`));
      expect(error.details).toMatchObject({ sessionId: 's', index: 0, handle: 'eu-west-2b' });
    }
  });

  it('checks the verbatim text before the token count', () => {
    expect(failure(withHandle({ start: 0, end: 6, tokens: -1 })).message).toMatch(/is not the verbatim text/);
  });
});
