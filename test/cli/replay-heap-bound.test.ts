/** A replay bounds V8's heap growth only for a transcript large enough to need it (or whose size is not known). */
import { mkdtemp, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPLAY_HEAP_BOUND_BYTES, replayBoundsHeap } from '../../src/cli/replay.js';

describe('replayBoundsHeap', () => {
  it('bounds the heap for a large file, a directory or a missing path, not for a small file', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'cl-heap-bound-'));
    const small = join(directory, 'small.jsonl');
    await writeFile(small, '{"role":"user","content":"Check the cache on host beta-2."}\n');
    const large = join(directory, 'large.jsonl');
    await writeFile(large, '');
    await truncate(large, REPLAY_HEAP_BOUND_BYTES);
    const justUnder = join(directory, 'under.jsonl');
    await writeFile(justUnder, '');
    await truncate(justUnder, REPLAY_HEAP_BOUND_BYTES - 1);
    expect(await replayBoundsHeap(small)).toBe(false);
    expect(await replayBoundsHeap(justUnder)).toBe(false);
    expect(await replayBoundsHeap(large)).toBe(true);
    expect(await replayBoundsHeap(directory)).toBe(true);
    expect(await replayBoundsHeap(join(directory, 'missing.jsonl'))).toBe(true);
  });
});
