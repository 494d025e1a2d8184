import { describe, expect, it } from 'vitest';
import {
  checkBoolean,
  checkObject,
  checkOneOf,
  checkString,
  firstProblem,
  kindOf,
  typedRecord,
  under,
} from '../../src/importers/field-checks.js';

describe('field checks', () => {
  it('name what a value is', () => {
    expect([undefined, null, [], {}, 'x', 1, true].map(kindOf)).toEqual([
      'nothing (the field is missing)',
      'null',
      'an array',
      'an object',
      'a string',
      'a number',
      'a boolean',
    ]);
  });

  it('accept a missing or null field only as the absence mode allows', () => {
    const record = { nothing: null };
    expect(checkString(record, 'absent')).toEqual({
      field: 'absent',
      problem: 'expected a string, got nothing (the field is missing)',
    });
    expect(checkString(record, 'absent', 'optional')).toBeUndefined();
    expect(checkString(record, 'absent', 'nullish')).toBeUndefined();
    expect(checkString(record, 'absent', 'nullable')?.field).toBe('absent');
    expect(checkString(record, 'nothing', 'optional')).toEqual({
      field: 'nothing',
      problem: 'expected a string, got null',
    });
    expect(checkString(record, 'nothing', 'nullable')).toBeUndefined();
    expect(checkBoolean(record, 'nothing', 'nullish')).toBeUndefined();
    expect(checkBoolean({ flag: 'yes' }, 'flag', 'nullish')?.problem).toBe('expected a boolean, got a string');
  });

  it('check string lengths, allowed values and objects', () => {
    expect(checkString({ id: '' }, 'id', 'required', { min: 1 })?.problem).toBe(
      'expected a string of at least 1 character(s), got 0',
    );
    expect(checkString({ id: 'abc' }, 'id', 'required', { max: 2 })?.problem).toBe(
      'expected a string of at most 2 characters, got 3',
    );
    expect(checkString({ id: 'ab' }, 'id', 'required', { min: 1, max: 2 })).toBeUndefined();
    expect(checkOneOf({ role: 'robot' }, 'role', ['user', 'assistant'])?.problem).toBe(
      'expected one of "user", "assistant", got a string',
    );
    expect(checkOneOf({ role: 'user' }, 'role', ['user', 'assistant'])).toBeUndefined();
    expect(checkObject({ message: [] }, 'message')?.problem).toBe('expected an object, got an array');
  });

  it('report the first problem, under a prefix, and typed records', () => {
    const problem = firstProblem(undefined, { field: 'id', problem: 'p1' }, { field: 'name', problem: 'p2' });
    expect(problem).toEqual({ field: 'id', problem: 'p1' });
    expect(under('payload', { field: 'id', problem: 'p' }).field).toBe('payload.id');
    expect(under('payload', { field: '(root)', problem: 'p' }).field).toBe('payload');
    expect(typedRecord('text')).toEqual({ field: '(root)', problem: 'expected an object, got a string' });
    expect(typedRecord({ type: 3 })?.field).toBe('type');
    expect(typedRecord({ type: 'text' })).toBeUndefined();
  });
});
