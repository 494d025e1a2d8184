import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const FORBIDDEN = ['better-sqlite3', 'pg', 'ai', '@modelcontextprotocol/sdk'];

async function staticImports(file: string, seen: Set<string>, external: Set<string>): Promise<void> {
  if (seen.has(file)) return;
  seen.add(file);
  const source = await readFile(file, 'utf8');
  for (const match of source.matchAll(/^\s*(?:import|export)\s+(?!type\b)[^'"]*?from\s+['"]([^'"]+)['"]/gm)) {
    const specifier = match[1] ?? '';
    if (specifier.startsWith('.'))
      await staticImports(resolve(dirname(file), specifier.replace(/\.js$/, '.ts')), seen, external);
    else
      external.add(
        specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : (specifier.split('/')[0] ?? specifier),
      );
  }
}

describe('the root entry', () => {
  it('statically loads no database driver, AI SDK or MCP SDK', async () => {
    const external = new Set<string>();
    await staticImports(join(process.cwd(), 'src/index.ts'), new Set(), external);
    for (const name of FORBIDDEN) expect(external.has(name), `src/index.ts reaches ${name}`).toBe(false);
    // the scan sees the entry's packages (gpt-tokenizer itself is loaded on first use since issue 38's hook work)
    expect([...external].some((name) => name.startsWith('node:'))).toBe(true);
    expect(external.has('gpt-tokenizer')).toBe(false);
  });
});

describe('the public surface', () => {
  it('keeps internals behind context-ledger/internal and opens sessions one way (ledger.session)', async () => {
    const root = await import('../../src/index.js');
    const internal = await import('../../src/internal.js');
    const internals = [
      'fitHandleBudget',
      'checkCarriedHandles',
      'mergeHandles',
      'ledgerBlock',
      'canonicalSpanBytes',
      'renderWindow',
      'LedgerSession',
    ];
    for (const name of internals) {
      expect(Object.keys(root), `root exports ${name}`).not.toContain(name);
      expect(Object.keys(internal), `internal lacks ${name}`).toContain(name);
    }
    expect(typeof root.createLedger).toBe('function');
  });

  it('declares the internal subpath in package.json', async () => {
    const manifest = JSON.parse(await readFile(join(process.cwd(), 'package.json'), 'utf8')) as {
      exports: Record<string, unknown>;
    };
    expect(manifest.exports['./internal']).toEqual({ types: './dist/internal.d.ts', default: './dist/internal.js' });
  });
});
