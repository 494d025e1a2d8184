import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseRankFile, rankFileBytes } from '../../src/tokens/o200k-rank-file.js';
import { buildRankTable, loadRankList, rankListVersion } from '../../src/tokens/o200k-rank-table.js';
import type { RankTable } from '../../src/tokens/o200k-rank-file.js';
import { createO200kCounter } from '../../src/tokens/token-counter.js';

const SAMPLE = 'Use PAYMENTS_DB_REPLICA=eu-west-2b, not eu-west-1 — ünïcode 🙂 \t\n  x = f(y)';
const built = buildRankTable(loadRankList());
const version = rankListVersion();

function expectSameTable(actual: RankTable | undefined, expected: RankTable): void {
  expect(actual).toBeDefined();
  if (actual === undefined) return;
  expect(actual.mask).toBe(expected.mask);
  for (const part of ['bytes', 'start', 'length', 'slots'] as const) {
    expect(actual[part].length, part).toBe(expected[part].length);
    expect(
      Buffer.compare(
        Buffer.from(actual[part].buffer, actual[part].byteOffset, actual[part].byteLength),
        Buffer.from(expected[part].buffer, expected[part].byteOffset, expected[part].byteLength),
      ),
      part,
    ).toBe(0);
  }
}

describe('the o200k rank file', () => {
  it('reads back the table it was written from', () => {
    expectSameTable(parseRankFile(rankFileBytes(built, version), version), built);
  });

  it('reads bytes that do not start at a 4-byte offset (copied to align the 32-bit arrays)', () => {
    const file = rankFileBytes(built, version);
    const shifted = new Uint8Array(file.length + 1);
    shifted.set(file, 1);
    expectSameTable(parseRankFile(shifted.subarray(1), version), built);
  });

  it('is not used when it names another gpt-tokenizer version, is cut short, grown, altered, or not a rank file', () => {
    const file = rankFileBytes(built, version);
    expect(parseRankFile(file, `${version}-other`)).toBeUndefined();
    expect(parseRankFile(file.subarray(0, file.length - 1), version)).toBeUndefined();
    expect(parseRankFile(Buffer.concat([file, Buffer.alloc(4)]), version)).toBeUndefined();
    expect(parseRankFile(file.subarray(0, 20), version)).toBeUndefined();
    const renamed = Buffer.from(file);
    renamed[0] = 'X'.charCodeAt(0);
    expect(parseRankFile(renamed, version)).toBeUndefined();
    // One bit of a slot, of a token's bytes, or of the digest itself: the digest no longer matches.
    for (const at of [file.length - 2_000_000, file.length - 1, 40]) {
      const flipped = Buffer.from(file);
      flipped[at] = (flipped[at] ?? 0) ^ 1;
      expect(parseRankFile(flipped, version), `byte ${at}`).toBeUndefined();
    }
  });

  it("is written by the build for the installed gpt-tokenizer and holds the rank list's table", () => {
    const file = readFileSync(join(process.cwd(), 'dist/tokens/o200k-rank-table.bin'));
    expectSameTable(parseRankFile(file, version), built);
  });

  it('spares a process that counts from loading the rank list, with the same counts', () => {
    // The compiled counter, in a fresh process: its table must come from the build's file.
    const script = `
      import { createRequire } from 'node:module';
      const { createO200kCounter } = await import(${JSON.stringify(new URL('../../dist/tokens/token-counter.js', import.meta.url).href)});
      const count = createO200kCounter().count(${JSON.stringify(SAMPLE)});
      const loaded = Object.keys(createRequire(import.meta.url).cache).filter((path) => path.includes('bpeRanks'));
      console.log(JSON.stringify({ count, loaded }));`;
    const out = JSON.parse(
      execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }),
    ) as {
      count: number;
      loaded: string[];
    };
    expect(out.loaded).toEqual([]);
    expect(out.count).toBe(createO200kCounter().count(SAMPLE));
  });
});
