/**
 * Amounts and quantities (issue 36, part 4): money amounts and bounded quantities are `number`
 * handles that keep their currency, unit, rate and label.
 */
import { describe, expect, it } from 'vitest';
import { extractHandles } from '../../src/handles/extract.js';

function numbers(text: string): string[] {
  return extractHandles(text, { kinds: ['number'] }).map((handle) => handle.text);
}

describe('amounts and quantities', () => {
  it('keep their currency, rate and label', () => {
    expect(numbers('The order came to $956 total.')).toEqual(['$956 total']);
    expect(numbers('Hosting is €1,200 per month.')).toEqual(['€1,200 per month']);
    expect(numbers('Budget: $200 for the sprint.')).toEqual(['Budget: $200']);
    expect(numbers('The licence is £3.5k a year.')).toEqual(['£3.5k a year']);
    expect(numbers('They quoted 2,000 USD upfront.')).toEqual(['2,000 USD upfront']);
    expect(numbers('Seats cost $12/user.')).toEqual(['$12/user']);
  });

  it('keep their unit and bound', () => {
    expect(numbers('The bucket holds 5 GB.')).toEqual(['5 GB']);
    expect(numbers('Use at most 3 retries.')).toEqual(['at most 3 retries']);
    expect(numbers('Set the pool size to 79 connections.')).toEqual(['pool size to 79 connections']);
    expect(numbers('Keep no more than 10 workers.')).toEqual(['no more than 10 workers']);
  });

  it('leave shell prompts, variables and bare bounds alone', () => {
    for (const text of [
      '$ kubectl get pods',
      'echo $PATH',
      'mv "$1" "$2"',
      'a$1 b',
      'use at most 3 of them',
      'x=$12abc',
    ])
      expect(numbers(text), text).toEqual([]);
  });
});
