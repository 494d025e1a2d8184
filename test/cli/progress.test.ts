import { describe, expect, it } from 'vitest';
import { createProgress, estimateRemaining, formatDuration } from '../../src/cli/progress.js';

/** A fake stream and clock: what was written, and a time the test moves. */
function fake(isTTY: boolean) {
  const writes: string[] = [];
  let time = 0;
  return {
    writes,
    stream: { isTTY, write: (text: string) => writes.push(text) > 0 },
    now: () => time,
    advance: (ms: number) => (time += ms),
  };
}

describe('progress on stderr', () => {
  it('on a TTY redraws one bar in place with the percentage and, once there is a rate, an ETA', () => {
    const out = fake(true);
    const progress = createProgress('replay x.jsonl', { stream: out.stream, now: out.now });
    progress.update(0, 100, '0 compactions');
    out.advance(2000);
    progress.update(25, 100, '3 compactions');
    progress.update(25, 100, '3 compactions');
    out.advance(2000);
    progress.update(50, 100);
    progress.done('9 compactions');
    expect(out.writes).toHaveLength(4);
    expect(out.writes.slice(0, 3).every((text) => text.startsWith('\r') && !text.includes('\n'))).toBe(true);
    expect(out.writes[0]).toMatch(/^\rreplay x\.jsonl \[-{30}\] 0% 0 compactions\s*$/);
    expect(out.writes[1]).toMatch(/^\rreplay x\.jsonl \[#{8}-{22}\] 25% 3 compactions, ETA 6s\s*$/);
    expect(out.writes[2]).toMatch(/\[#{15}-{15}\] 50% ETA 4s/);
    expect(out.writes[3]).toMatch(/^\rreplay x\.jsonl done 9 compactions, in 4s\s*\n$/);
  });

  it('without a TTY writes whole lines, one per 10% or per interval, never a carriage return', () => {
    const out = fake(false);
    const progress = createProgress('audit 3 files (9 MB)', { stream: out.stream, now: out.now, lineIntervalMs: 5000 });
    progress.update(1, 1000, '0/3 files');
    out.advance(1000);
    progress.update(20, 1000, '0/3 files');
    out.advance(5000);
    progress.update(30, 1000, '0/3 files');
    out.advance(100);
    progress.update(150, 1000, '1/3 files');
    progress.done('3 files');
    expect(out.writes).toEqual([
      'audit 3 files (9 MB): 0% 0/3 files\n',
      'audit 3 files (9 MB): 3% 0/3 files, ETA 3m14s\n',
      'audit 3 files (9 MB): 15% 1/3 files, ETA 35s\n',
      'audit 3 files (9 MB): done 3 files, in 6s\n',
    ]);
  });

  it('prints nothing when quiet', () => {
    for (const isTTY of [true, false]) {
      const out = fake(isTTY);
      const progress = createProgress('replay x', { quiet: true, stream: out.stream, now: out.now });
      progress.update(5, 10);
      out.advance(10_000);
      progress.update(10, 10);
      progress.done('done');
      expect(out.writes).toEqual([]);
    }
  });

  it('estimates the time left from the rate so far, and formats durations', () => {
    expect(estimateRemaining(500, 10, 100)).toBeUndefined();
    expect(estimateRemaining(10_000, 0, 100)).toBeUndefined();
    expect(estimateRemaining(10_000, 25, 100)).toBe(30_000);
    expect(estimateRemaining(10_000, 100, 100)).toBe(0);
    expect(formatDuration(42_400)).toBe('42s');
    expect(formatDuration(185_000)).toBe('3m05s');
    expect(formatDuration(3_720_000)).toBe('1h02m');
  });
});
