import { describe, expect, it } from 'vitest';
import { extractHandles } from '../../src/handles/extract.js';

function pairs(text: string): string[] {
  return extractHandles(text).map((handle) => `${handle.kind}:${handle.text}`);
}

/**
 * The line pass skips a line's regexes when its first characters rule them out; these lines have their trigger in
 * the unusual places those checks must still let through.
 */
describe('line pre-checks', () => {
  it('keeps error lines that start with a character no other alternative starts with, when they hold " error"', () => {
    expect(pairs('~/proj/a.ts:3:4 error TS2307: x')).toContain('error:~/proj/a.ts:3:4 error TS2307: x');
    expect(pairs('#/a.ts(4,21): error TS2307 gone')).toContain('error:#/a.ts(4,21): error TS2307 gone');
    expect(pairs('#/a.ts(4,21): warning only').some((pair) => pair.startsWith('error:'))).toBe(false);
  });

  it('keeps error lines that start with `$`, `[` or after tabs', () => {
    expect(pairs('ok\n  $scope.TypeError: boom\n')).toContain('error:$scope.TypeError: boom');
    expect(pairs('\t [ERROR] disk full\n')).toEqual(['error:[ERROR] disk full']);
  });

  it('finds indented header names, and only after a capital', () => {
    expect(pairs('  Co-Authored-By: Claude <x@y.z>')).toEqual(['identifier:Co-Authored-By']);
    expect(pairs('  co-Authored-By: Claude <x@y.z>')).toEqual(['assignment:co-Authored-By: Claude <x@y.z>']);
  });

  it('finds config lines with bullets, quoted keys and blanks before the separator', () => {
    expect(pairs('- "max_retries": 5\n* key\t= 5\nkey:value\n  timeout_ms :  30\n"k" : 1')).toEqual([
      'assignment:"max_retries": 5',
      'identifier:max_retries',
      'assignment:key\t= 5',
      'identifier:timeout_ms',
      'assignment:timeout_ms :  30',
      'assignment:"k" : 1',
    ]);
  });

  it('masks raw terminal escapes next to backslash escapes', () => {
    expect(pairs('x \u001b[1msrc/a.ts\u001b[0m and \\n src/b.ts')).toEqual(['path:src/a.ts', 'path:src/b.ts']);
    expect(pairs('x \u009b1msrc/a.ts and path\\tsrc/c.ts')).toEqual(['path:src/a.ts', 'path:src/c.ts']);
  });
});
