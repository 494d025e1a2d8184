import { describe, expect, it } from 'vitest';
import {
  boundHeapGrowth,
  raiseInterruptBudget,
  REPLAY_HEAP_GROWING_PERCENT,
  REPLAY_INTERRUPT_BUDGET,
} from '../../src/cli/long-replay-flags.js';

describe('boundHeapGrowth', () => {
  it('sets the growth unless the user already chose one on the command line or in NODE_OPTIONS', () => {
    expect(boundHeapGrowth(REPLAY_HEAP_GROWING_PERCENT, ['--max-old-space-size=512', ''])).toBe(true);
    expect(boundHeapGrowth(REPLAY_HEAP_GROWING_PERCENT, ['--heap-growing-percent=80'])).toBe(false);
    expect(boundHeapGrowth(REPLAY_HEAP_GROWING_PERCENT, ['', '--inspect --heap_growing_percent=20'])).toBe(false);
  });
});

describe('raiseInterruptBudget', () => {
  it('raises the budget on a Node whose V8 takes the flag, unless the user chose one', () => {
    expect(raiseInterruptBudget(REPLAY_INTERRUPT_BUDGET, ['--max-old-space-size=512', ''], '20')).toBe(true);
    expect(raiseInterruptBudget(REPLAY_INTERRUPT_BUDGET, ['--interrupt-budget=50000'], '20')).toBe(false);
    expect(raiseInterruptBudget(REPLAY_INTERRUPT_BUDGET, ['', '--interrupt_budget=1000'], '22')).toBe(false);
  });

  it('leaves a Node it does not know alone (its V8 would print an error for an unknown flag)', () => {
    expect(raiseInterruptBudget(REPLAY_INTERRUPT_BUDGET, [''], '26')).toBe(false);
    expect(raiseInterruptBudget(REPLAY_INTERRUPT_BUDGET, [''], '')).toBe(false);
  });
});
