import { describe, expect, it } from 'vitest';
import { MAX_MESSAGES_BETWEEN_CALLS, ModelCalls } from '../../src/session/model-calls.js';
import type { TranscriptMessage } from '../../src/index.js';

const roles = (list: string) => list.split(' ').map((role) => ({ role }) as Pick<TranscriptMessage, 'role'>);

describe('ModelCalls', () => {
  it('calls the model before each assistant turn, never between a tool call and its results', () => {
    const calls = new ModelCalls();
    const transcript = roles('system user assistant assistant tool tool assistant tool user assistant');
    expect(transcript.map((message) => calls.before(message))).toEqual([
      false, // nothing taken yet
      false,
      true, // the first assistant turn, after the task
      false, // the same turn's tool call
      false, // its results
      false,
      true, // the next turn, once both results are in
      false,
      false,
      true,
    ]);
    expect(calls.pending()).toBe(true);
  });

  it(`calls it at least every ${MAX_MESSAGES_BETWEEN_CALLS} messages when no assistant turn comes`, () => {
    const calls = new ModelCalls();
    const made: number[] = [];
    for (let index = 0; index < 3 * MAX_MESSAGES_BETWEEN_CALLS; index++)
      if (calls.before({ role: 'user' })) made.push(index);
    expect(made).toEqual([MAX_MESSAGES_BETWEEN_CALLS, 2 * MAX_MESSAGES_BETWEEN_CALLS]);
  });

  it('starts the turn over after a reset (an agent compaction in between)', () => {
    const calls = new ModelCalls();
    calls.before({ role: 'user' });
    calls.reset();
    expect(calls.pending()).toBe(false);
    expect(calls.before({ role: 'assistant' })).toBe(false);
  });
});
