import { describe, expect, it } from 'vitest';
import { extractHandles } from '../../src/handles/extract.js';

/** The assignment handles extracted from `text` as tool output. */
function assignments(text: string): string[] {
  return extractHandles(text, { toolOutput: true })
    .filter((handle) => handle.kind === 'assignment')
    .map((handle) => handle.text);
}

describe('package versions: a printed version is bound to the package it is the version of', () => {
  it('binds the application of each stack frame, and keeps the name and the version as handles of their own', () => {
    const trace =
      '     ** (ArgumentError) cookie store expects conn.secret_key_base to be set\n' +
      '       (phoenix 1.8.3) lib/phoenix/token.ex:135: Phoenix.Token.sign/4\n' +
      '       (phoenix_live_view 1.1.22) lib/phoenix_live_view/static.ex:158: Phoenix.LiveView.Static.render/3\n';
    expect(assignments(trace)).toEqual(['phoenix 1.8.3', 'phoenix_live_view 1.1.22']);
    const texts = extractHandles(trace, { toolOutput: true }).map((handle) => `${handle.kind}:${handle.text}`);
    expect(texts).toEqual(expect.arrayContaining(['identifier:phoenix_live_view', 'version:1.1.22', 'version:1.8.3']));
  });

  it('binds each line of a dependency listing, whatever the blanks between name and version', () => {
    expect(assignments('Resolving Hex dependencies...\n  yamerl 0.10.0\n  yaml_elixir 2.12.0\n  ymlr 5.1.4\n')).toEqual(
      ['yamerl 0.10.0', 'yaml_elixir 2.12.0', 'ymlr 5.1.4'],
    );
    expect(assignments('Package    Version\n---------- -------\nrequests   2.31.0\n- numpy 1.26.4')).toEqual([
      'requests   2.31.0',
      'numpy 1.26.4',
    ]);
  });

  it('binds no version that shares its line with other words, nor one a product or a verb names', () => {
    expect(assignments('we pinned phoenix 1.8.3 last week\n')).not.toContain('phoenix 1.8.3');
    expect(assignments('(phoenix 1.8.3 and more)\n')).toEqual([]);
    expect(assignments('  version 1.8.3\n  upgraded 2.0.1\n')).toEqual([]);
    expect(assignments('  phoenix 1.8\n')).toEqual([]);
    expect(extractHandles('Python 3.11.7\n', { toolOutput: true }).map((handle) => handle.text)).toEqual([
      'Python 3.11.7',
    ]);
  });
});
