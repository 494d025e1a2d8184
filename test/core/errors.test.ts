import { describe, expect, it } from 'vitest';
import {
  HandleBudgetExceededError,
  InvalidInputError,
  LedgerError,
  NotFoundError,
  TranscriptParseError,
} from '../../src/index.js';

describe('error classes', () => {
  it('are real classes: instanceof, name, code and typed details', () => {
    const error = new TranscriptParseError('demo.jsonl line 3: not JSON', { file: 'demo.jsonl', line: 3 });
    expect(error).toBeInstanceOf(TranscriptParseError);
    expect(error).toBeInstanceOf(LedgerError);
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('TranscriptParseError');
    expect(error.code).toBe('TRANSCRIPT_PARSE');
    const file: string = error.details.file;
    expect(file).toBe('demo.jsonl');
    expect(error.details.line).toBe(3);
  });

  it('isInstance checks the code, and recognises an error from another copy of the package', () => {
    const budget = new HandleBudgetExceededError('over', { sessionId: 's', handles: 3, tokens: 90, budgetTokens: 10 });
    expect(HandleBudgetExceededError.isInstance(budget)).toBe(true);
    expect(InvalidInputError.isInstance(budget)).toBe(false);
    expect(LedgerError.isInstance(budget)).toBe(true);
    // An object made by another copy of the package carries the same global marker, not our prototype.
    const foreign = Object.assign(new Error('missing'), {
      code: 'NOT_FOUND',
      [Symbol.for('context-ledger.error')]: true,
    });
    expect(foreign instanceof NotFoundError).toBe(false);
    expect(NotFoundError.isInstance(foreign)).toBe(true);
    expect(InvalidInputError.isInstance(foreign)).toBe(false);
    expect(LedgerError.isInstance(new Error('plain'))).toBe(false);
  });

  it('keeps the cause', () => {
    const cause = new Error('disk full');
    const error = new InvalidInputError('bad', { field: 'content' }, { cause });
    expect(error.cause).toBe(cause);
  });
});
