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
      '     ** (ArgumentError) signer expects conn.signing_salt to be set\n' +
      '       (falcon 2.4.1) lib/falcon/signer.ex:88: Falcon.Signer.sign/3\n' +
      '       (falcon_live 0.9.12) lib/falcon_live/static.ex:204: FalconLive.Static.render/3\n';
    expect(assignments(trace)).toEqual(['falcon 2.4.1', 'falcon_live 0.9.12']);
    const texts = extractHandles(trace, { toolOutput: true }).map((handle) => `${handle.kind}:${handle.text}`);
    expect(texts).toEqual(expect.arrayContaining(['identifier:falcon_live', 'version:0.9.12', 'version:2.4.1']));
  });

  it('binds each line of a dependency listing, whatever the blanks between name and version', () => {
    expect(assignments('Resolving Hex dependencies...\n  tomlex 0.4.2\n  toml_elixir 1.7.0\n  tmlr 3.0.9\n')).toEqual([
      'tomlex 0.4.2',
      'toml_elixir 1.7.0',
      'tmlr 3.0.9',
    ]);
    expect(assignments('Package    Version\n---------- -------\nrequests   2.31.0\n- numpy 1.26.4')).toEqual([
      'requests   2.31.0',
      'numpy 1.26.4',
    ]);
  });

  it('binds no version that shares its line with other words, nor one a product or a verb names', () => {
    expect(assignments('we pinned falcon 2.4.1 last week\n')).not.toContain('falcon 2.4.1');
    expect(assignments('(falcon 2.4.1 and more)\n')).toEqual([]);
    expect(assignments('  version 1.8.3\n  upgraded 2.0.1\n')).toEqual([]);
    expect(assignments('  falcon 2.4\n')).toEqual([]);
    expect(extractHandles('Python 3.11.7\n', { toolOutput: true }).map((handle) => handle.text)).toEqual([
      'Python 3.11.7',
    ]);
  });
});
