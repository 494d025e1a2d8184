import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { rankFileBytes, rankFileRead, readRankFile } from '../../src/tokens/o200k-rank-file.js';
import { MAX_PAGED_BLOCKS } from '../../src/tokens/o200k-rank-pages.js';
import { keepRankFileStamps } from '../../src/tokens/o200k-rank-stamp.js';
import {
  buildRankTable,
  hashBytes,
  hashedRankOf,
  loadRankList,
  NO_RANK,
  rankListVersion,
} from '../../src/tokens/o200k-rank-table.js';
import type { RankTable } from '../../src/tokens/o200k-rank-file.js';

const version = rankListVersion();
const built = buildRankTable(loadRankList());
const folder = mkdtempSync(join(tmpdir(), 'cl-rank-pages-'));

afterEach(() => keepRankFileStamps(undefined));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** A stamped rank file read a few bytes at a time. */
function pagedTable(name: string): RankTable {
  const path = join(folder, name);
  writeFileSync(path, rankFileBytes(built, version));
  const then = new Date(Date.now() - 60_000);
  utimesSync(path, then, then);
  keepRankFileStamps(join(folder, 'stamps'), 0);
  expect(readRankFile(version, pathToFileURL(path), { paged: true })).toBeDefined();
  expect(rankFileRead()?.outcome).toBe('checked');
  const paged = readRankFile(version, pathToFileURL(path), { paged: true });
  expect(rankFileRead()?.outcome).toBe('paged');
  expect(paged?.paged).toBeDefined();
  if (paged === undefined) throw new Error('no table');
  return paged;
}

const rank = (table: RankTable, bytes: Uint8Array) =>
  hashedRankOf(table, bytes, 0, bytes.length, hashBytes(bytes, 0, bytes.length));

/** Deterministic pseudo-random bytes. */
function randomBytes(seed: number, length: number): Uint8Array {
  const out = new Uint8Array(length);
  let state = seed;
  for (let index = 0; index < length; index += 1) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    out[index] = state >>> 24;
  }
  return out;
}

describe('the rank table read a few bytes at a time', () => {
  it('finds the rank the whole table finds, for tokens and for byte strings that are not tokens', () => {
    const paged = pagedTable('ranks-a.bin');
    const samples: Uint8Array[] = [];
    for (let r = 0; r < built.start.length; r += 997) {
      const from = built.start[r] ?? 0;
      samples.push(built.bytes.slice(from, from + (built.length[r] ?? 0)));
    }
    for (let seed = 1; seed < 300; seed += 1) samples.push(randomBytes(seed, 1 + (seed % 9)));
    for (const word of ['hello', ' world', 'PAY', '-', '480', '\n\n', 'ünï', '🙂'])
      samples.push(new TextEncoder().encode(word));
    let found = 0;
    for (const bytes of samples) {
      const expected = rank(built, bytes);
      if (expected !== NO_RANK) found += 1;
      expect(rank(paged, bytes), Buffer.from(bytes).toString('hex')).toBe(expected);
    }
    expect(found).toBeGreaterThan(200);
    paged.paged?.close();
  });

  it('is used only for a stamped file, and only when asked for', () => {
    const path = join(folder, 'ranks-b.bin');
    writeFileSync(path, rankFileBytes(built, version));
    keepRankFileStamps(join(folder, 'stamps-b'), 60_000);
    // not settled: no stamp, read whole every time
    expect(readRankFile(version, pathToFileURL(path), { paged: true })?.paged).toBeUndefined();
    expect(readRankFile(version, pathToFileURL(path), { paged: true })?.paged).toBeUndefined();
    expect(rankFileRead()?.outcome).toBe('checked');
    const paged = pagedTable('ranks-c.bin');
    paged.paged?.close();
    expect(readRankFile(version, pathToFileURL(join(folder, 'ranks-c.bin')))?.paged).toBeUndefined();
    expect(rankFileRead()?.outcome).toBe('stamped');
  });

  it('says when the process has read enough blocks to read the whole table instead', () => {
    const paged = pagedTable('ranks-d.bin');
    const pages = paged.paged;
    if (pages === undefined) throw new Error('not paged');
    let seed = 1;
    while (!pages.exhausted) rank(paged, randomBytes(seed++, 6));
    expect(pages.blocksRead).toBeGreaterThanOrEqual(MAX_PAGED_BLOCKS);
    pages.close();
    expect(pages.exhausted).toBe(true);
  });

  it("reads the installed gpt-tokenizer's version from its package.json as requiring it gives", () => {
    const required = createRequire(import.meta.url)('gpt-tokenizer/package.json') as { version: string };
    expect(rankListVersion()).toBe(required.version);
  });
});
