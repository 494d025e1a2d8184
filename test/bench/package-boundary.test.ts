import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');

function sources(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .map((file) => join(folder, file));
}

function importsOf(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  return [...text.matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)].map((match) => match[1] ?? '');
}

describe('the benchmarks stay out of the package', () => {
  it('publishes only dist, README.md and LICENSE', () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      files?: string[];
      devDependencies?: Record<string, string>;
      dependencies?: Record<string, string>;
    };
    expect(manifest.files).toEqual(['dist', 'README.md', 'LICENSE']);
    expect(manifest.devDependencies?.['@langchain/core']).toBeDefined();
    expect(manifest.dependencies?.['@langchain/core']).toBeUndefined();
    expect(readFileSync(join(ROOT, 'LICENSE'), 'utf8')).toContain('context-ledger contributors');
  });

  it('no library source imports benchmark code, and none is left under src', () => {
    for (const file of sources('src')) {
      expect(file.startsWith(join('src', 'bench'))).toBe(false);
      for (const target of importsOf(file)) expect(`${file} imports ${target}`).not.toMatch(/bench\/|@langchain/);
    }
  });

  it('@langchain/core is used only under bench/', () => {
    const users = ['src', 'test', 'examples', 'bench']
      .flatMap(sources)
      .filter((file) => importsOf(file).some((target) => target.startsWith('@langchain/')));
    expect(users.length).toBeGreaterThan(0);
    for (const file of users) expect(relative(ROOT, join(ROOT, file)).startsWith('bench')).toBe(true);
  });
});
