import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { checkRankFile, rankFileBytes, rankFileRead, readRankFile } from '../../src/tokens/o200k-rank-file.js';
import { keepRankFileStamps } from '../../src/tokens/o200k-rank-stamp.js';
import { buildRankTable, loadRankList, rankListVersion } from '../../src/tokens/o200k-rank-table.js';

const version = rankListVersion();
const bytes = rankFileBytes(buildRankTable(loadRankList()), version);
const folder = mkdtempSync(join(tmpdir(), 'cl-rank-stamp-'));
let fileNumber = 0;

/** A rank file of its own. */
function rankFile(contents: Uint8Array = bytes): URL {
  const path = join(folder, `ranks-${fileNumber++}.bin`);
  writeFileSync(path, contents);
  return pathToFileURL(path);
}

/**
 * Flip one bit of the file in place (same inode, same size) and set its times back as they were: only its change
 * time, which no program can set, tells. (After a pause: file times come from a coarse clock.)
 */
async function damageInPlace(url: URL, at: number): Promise<void> {
  const { atime, mtime } = statSync(url);
  await new Promise((resolve) => setTimeout(resolve, 30));
  const damaged = Buffer.from(readFileSync(url));
  damaged[at] = (damaged[at] ?? 0) ^ 1;
  writeFileSync(url, damaged);
  utimesSync(url, atime, mtime);
}

const stampsIn = (directory: string) => readdirSync(directory).filter((name) => name.endsWith('.stamp'));

afterEach(() => keepRankFileStamps(undefined));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('stamps of checked rank files', () => {
  it('are not kept unless asked for: every read checks the digest', () => {
    const url = rankFile();
    expect(readRankFile(version, url)).toBeDefined();
    expect(rankFileRead()?.outcome).toBe('checked');
    expect(readRankFile(version, url)).toBeDefined();
    expect(rankFileRead()?.outcome).toBe('checked');
  });

  it('spare the digest of a file checked before and not written since, with the same table', () => {
    const stamps = mkdtempSync(join(folder, 'stamps-'));
    keepRankFileStamps(stamps, 0);
    const url = rankFile();
    const checked = readRankFile(version, url);
    expect(rankFileRead()?.outcome).toBe('checked');
    expect(stampsIn(stamps)).toHaveLength(1);
    const stamped = readRankFile(version, url);
    expect(rankFileRead()?.outcome).toBe('stamped');
    expect(stamped?.mask).toBe(checked?.mask);
    const view = (array: Uint8Array | Int32Array | undefined) =>
      array === undefined ? Buffer.alloc(0) : Buffer.from(array.buffer, array.byteOffset, array.byteLength);
    for (const part of ['bytes', 'start', 'length', 'slots'] as const)
      expect(view(stamped?.[part]).equals(view(checked?.[part])), part).toBe(true);
    expect(view(stamped?.slots).length).toBeGreaterThan(1_000_000);
  });

  it('do not hide a file damaged after its check: its digest is checked again and it is refused', async () => {
    const stamps = mkdtempSync(join(folder, 'stamps-'));
    keepRankFileStamps(stamps, 0);
    const url = rankFile();
    expect(readRankFile(version, url)).toBeDefined();
    expect(stampsIn(stamps)).toHaveLength(1);
    await damageInPlace(url, bytes.length - 1_000);
    expect(readRankFile(version, url)).toBeUndefined();
    expect(rankFileRead()).toMatchObject({
      outcome: 'refused',
      problem: expect.stringMatching(/SHA-256 does not match/),
    });
    // and again: a refused file is never stamped
    expect(readRankFile(version, url)).toBeUndefined();
    expect(rankFileRead()?.outcome).toBe('refused');
  });

  it('are not kept of a file changed moments ago (its file times may not show a write in the same clock tick)', () => {
    const stamps = mkdtempSync(join(folder, 'stamps-'));
    keepRankFileStamps(stamps, 60_000);
    const url = rankFile();
    expect(readRankFile(version, url)).toBeDefined();
    expect(stampsIn(stamps)).toEqual([]);
    expect(readRankFile(version, url)).toBeDefined();
    expect(rankFileRead()?.outcome).toBe('checked');
  });

  it('name the gpt-tokenizer version: a stamp taken for another version is not used', () => {
    const stamps = mkdtempSync(join(folder, 'stamps-'));
    keepRankFileStamps(stamps, 0);
    const url = rankFile(rankFileBytes(buildRankTable(loadRankList()), `${version}-old`));
    expect(readRankFile(`${version}-old`, url)).toBeDefined();
    expect(readRankFile(version, url)).toBeUndefined();
    expect(rankFileRead()?.problem).toMatch(/built from gpt-tokenizer .*-old, not the installed/);
  });

  it('that cannot be read or written leave the digest checked', () => {
    const stamps = mkdtempSync(join(folder, 'stamps-'));
    keepRankFileStamps(stamps, 0);
    const url = rankFile();
    readRankFile(version, url);
    for (const name of stampsIn(stamps)) writeFileSync(join(stamps, name), 'not a stamp\n');
    expect(readRankFile(version, url)).toBeDefined();
    expect(rankFileRead()?.outcome).toBe('checked');
    // a folder that cannot be made (a file is in its way): no stamp, no error
    const blocked = join(folder, `blocked-${fileNumber++}`);
    writeFileSync(blocked, '');
    keepRankFileStamps(join(blocked, 'stamps'), 0);
    expect(readRankFile(version, url)).toBeDefined();
    expect(readRankFile(version, url)).toBeDefined();
    expect(rankFileRead()?.outcome).toBe('checked');
  });

  it('a missing file is reported as missing', () => {
    expect(readRankFile(version, pathToFileURL(join(folder, 'none.bin')))).toBeUndefined();
    expect(rankFileRead()?.outcome).toBe('missing');
  });
});

describe('checkRankFile', () => {
  it('says what is wrong with a file it refuses', () => {
    expect(checkRankFile(bytes.subarray(0, 20), version)).toMatch(/not a rank file/);
    expect(checkRankFile(bytes.subarray(0, bytes.length - 1), version)).toMatch(
      /holds \d+ bytes where its header says/,
    );
    const flipped = Buffer.from(bytes);
    flipped[bytes.length - 1] = (flipped[bytes.length - 1] ?? 0) ^ 1;
    expect(checkRankFile(flipped, version)).toMatch(/SHA-256 does not match/);
    // without the digest (a stamped file) the same bytes pass the other checks: only a stamp may skip it
    expect(typeof checkRankFile(flipped, version, false)).toBe('object');
  });
});
