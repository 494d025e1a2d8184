/**
 * The README's figures are made by `scripts/readme-figures.mjs` from `bench/results/` and the built code; this
 * fails when a figure was edited by hand or its source changed without `npm run readme:figures`.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

describe('README figures', () => {
  it('every marked block equals what the script makes from its source', () => {
    const result = spawnSync(process.execPath, ['scripts/readme-figures.mjs', '--check'], { encoding: 'utf8' });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });

  it('the blocks the issue named are marked (demo size, Stop hook, audit table, MCP tool count)', () => {
    const readme = readFileSync('README.md', 'utf8');
    for (const name of ['demo-messages', 'hook-stop', 'audit-table', 'mcp-tools'])
      expect(readme).toContain(`<!-- figures:${name} -->`);
    expect(readFileSync('examples/README.md', 'utf8')).not.toMatch(/\b(?:five|six|seven) tools\b/);
  });

  it('has a section for each integration and store a user looks for', () => {
    const headings = readFileSync('README.md', 'utf8')
      .split('\n')
      .filter((line) => line.startsWith('#'));
    for (const topic of ['Claude Code', 'Codex', 'MCP', 'AI SDK', 'PostgreSQL', 'Audit', 'context-ledger` command'])
      expect(
        headings.some((heading) => heading.includes(topic)),
        topic,
      ).toBe(true);
  });
});
