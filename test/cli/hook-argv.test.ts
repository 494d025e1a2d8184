/**
 * `main.ts` runs a plain hook call without commander (`hook-argv.ts`) and leaves every other call, and anything
 * unusual in a hook call, to the full command line, which answers it as before (help, errors, exit codes).
 */
import { describe, expect, it } from 'vitest';
import { hookCallOf } from '../../src/cli/hook-argv.js';

describe('hookCallOf', () => {
  it('reads a plain hook call with its --store and --budget, in either spelling', () => {
    expect(hookCallOf(['hook', 'claude-code'])).toEqual({
      agent: 'claude-code',
      options: { store: undefined, budget: undefined },
    });
    expect(hookCallOf(['hook', 'codex', '--store', 'sqlite:/tmp/x.db', '--budget=2000'])).toEqual({
      agent: 'codex',
      options: { store: 'sqlite:/tmp/x.db', budget: '2000' },
    });
    expect(hookCallOf(['hook', 'claude-code', '--budget', 'lots'])?.options.budget).toBe('lots');
  });

  it('leaves every other call to the command line', () => {
    for (const args of [
      [],
      ['replay', 'session.jsonl'],
      ['hook'],
      ['hook', 'cursor'],
      ['hook', 'claude-code', '--help'],
      ['hook', 'claude-code', '--store'],
      ['hook', 'claude-code', '--store', '--budget', '10'],
      ['hook', 'claude-code', '--store', 'a', '--store', 'b'],
      ['hook', 'claude-code', '--sotre', 'a'],
      ['hook', 'claude-code', 'extra'],
      ['--version'],
    ])
      expect(hookCallOf(args), args.join(' ')).toBeUndefined();
  });
});
