/**
 * Labels that name nothing (issue 36, found in replays of real sessions): a command line inside a tool call's JSON
 * arguments (`{"command":"git remote set-url origin …"}`: the program is glued to the JSON around it), a connector or
 * stop word alone before its colon ("Wrote 3 files to: x", "something like: y"), a message's kind ("Error: a.go:4: …":
 * where the error is, not what `error` is set to, so a later error would not supersede the file), a value that repeats
 * its label (`msg1: msg1`). None is a binding; the value stays its own handle.
 */
import { describe, expect, it } from 'vitest';
import { extractHandles } from '../../src/handles/extract.js';

const assignments = (text: string) =>
  extractHandles(text)
    .filter((handle) => handle.kind === 'assignment')
    .map((handle) => handle.text);

describe('a binding label', () => {
  it('is never the arguments of a command a tool call runs, whatever JSON the program is glued to', () => {
    expect(assignments('{"command":"git remote set-url upstream https://git.example.org/shop/cart.git"}')).toEqual([]);
    expect(assignments('{"cmd":"cargo publish --dry-run crates/ledger-core","workdir":"/srv/app"}')).toEqual([]);
    expect(assignments('run `git merge-base HEAD origin/feature/cart-7`')).toEqual([]);
    expect(assignments('echo $(git merge-base HEAD origin/feature/cart-7)')).toEqual([]);
  });

  it('is no connector or stop word alone before its colon', () => {
    expect(assignments('Wrote 3 file(s) to: out/reports/weekly.csv')).toEqual([]);
    expect(assignments('the folder name looks something like: run-20240101-abc/tasks/')).toEqual([]);
    expect(assignments('Copied transcript to: out/t.jsonl')).toEqual(['Copied transcript to: out/t.jsonl']);
    expect(assignments('Error: internal/cart/total.go:41:7: undefined: roundCents')).toEqual([]);
    expect(assignments('Warning: config/shop.yaml uses a deprecated key')).toEqual([]);
    expect(assignments('Cache dir: /var/cache/shop-7')).toEqual(['Cache dir: /var/cache/shop-7']);
  });

  it('is not the value again', () => {
    const found = assignments('the replica: replica-2 and replica-3: replica-3');
    expect(found).toContain('replica: replica-2');
    expect(found.filter((text) => text.startsWith('replica-3'))).toEqual([]);
  });
});
