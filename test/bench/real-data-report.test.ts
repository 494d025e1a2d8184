import { describe, expect, it } from 'vitest';
import type { BenchResult } from '../../bench/bench-result.js';
import { parseBenchArguments } from '../../bench/cli-args.js';
import { README_MARKERS, renderReport, withRealDataBlock } from '../../bench/results-markdown.js';

const machine = { cpu: 'cpu', cores: 2, memoryGiB: 4, os: 'linux', node: 'v20' };

function result(name: string, leadValue: number): BenchResult {
  return {
    name,
    title: `${name} title`,
    date: '2026-12-03T12:00:00.000Z',
    quick: false,
    machine,
    notes: [`Data: ${name} data.`],
    tables: [],
    targets: [],
    lead: { title: `${name} lead`, columns: ['value'], rows: [[leadValue]] },
  };
}

describe('the real-data figures lead', () => {
  const results = [result('handles-quality', 1), result('prompt-cache', 0.614), result('real-replay', 0.014)];

  it('puts the real-data lead tables first in RESULTS.md, in their own order', () => {
    const report = renderReport(results);
    const at = (title: string) => report.indexOf(title);
    expect(at('real-replay lead')).toBeGreaterThan(0);
    expect(at('real-replay lead')).toBeLessThan(at('prompt-cache lead'));
    expect(at('prompt-cache lead')).toBeLessThan(at('handles-quality lead'));
  });

  it('rebuilds only the README block between the markers, from the results', () => {
    const readme = `# x\n\nbefore\n${README_MARKERS.start}\nold figures 0.999\n${README_MARKERS.end}\nafter\n`;
    const updated = withRealDataBlock(readme, results) ?? '';
    expect(updated).not.toContain('old figures');
    expect(updated).toContain('| 0.614 |');
    expect(updated).toContain('| 0.014 |');
    expect(updated).not.toContain('handles-quality lead');
    expect(updated.startsWith('# x\n\nbefore\n')).toBe(true);
    expect(updated.endsWith(`${README_MARKERS.end}\nafter\n`)).toBe(true);
    expect(withRealDataBlock(updated, results)).toBe(updated);
    expect(withRealDataBlock('# no markers\n', results)).toBeUndefined();
  });
});

describe('the data folder', () => {
  it('comes from --data, else CONTEXT_LEDGER_DATA, else ../shared/data', () => {
    const env = { CONTEXT_LEDGER_DATA: '/data/other-sessions' };
    expect(parseBenchArguments(['real-replay'], '/work/x', env).dataDir).toBe('/data/other-sessions');
    expect(parseBenchArguments(['--data', 'mine'], '/work/x', env).dataDir).toBe('/work/x/mine');
    expect(parseBenchArguments([], '/work/x', {}).dataDir).toBe('/work/shared/data');
  });

  it('rebuilds the README only in a full run with the default output', () => {
    expect(parseBenchArguments([], '/work/x', {}).readmeFile).toBe('/work/x/README.md');
    expect(parseBenchArguments(['--quick'], '/work/x', {}).readmeFile).toBeUndefined();
    expect(parseBenchArguments(['--out', 'o'], '/work/x', {}).readmeFile).toBeUndefined();
  });
});
