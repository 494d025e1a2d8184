import { describe, expect, it } from 'vitest';
import { extractHandles } from '../../src/handles/extract.js';

const dates = (text: string) =>
  extractHandles(text)
    .filter((handle) => handle.kind === 'date')
    .map((h) => h.text);

describe('dates in an `ls -l` listing', () => {
  const listing = [
    'drwxr-xr-x 2 root root 4096 Sep 10 09:22 astropy',
    '-rw-r--r-- 1 root root   66 Sep 10 09:22 .gitattributes',
    '-rw-r--r-- 1 root root 2655 Sep 10  2023 README.rst',
  ].join('\n');

  it('do not take a file size for a leading year or a day of the month', () => {
    const found = dates(listing);
    expect(found).not.toContain('4096 Sep 10');
    expect(found).not.toContain('2655 Sep 10');
    expect(found.some((text) => /^\d+ Sep$/.test(text))).toBe(false);
    expect(found).toContain('Sep 10 09:22');
  });

  it('still read a leading year and a day-first date', () => {
    expect(dates('Date of Record: 2026 November 12')).toEqual(['2026 November 12']);
    expect(dates('On 31 March we decide; not on 32 March.')).toEqual(['31 March']);
  });
});

describe('day-month-year dates', () => {
  it("read an RFC 850 date's day, month and year as one date, not a hyphenated name", () => {
    expect(dates("parse_http_date('Tuesday, 17-Mar-98 14:05:12 GMT')")).toEqual(['17-Mar-98']);
    expect(dates('rotated on 14-Nov-2026 at noon')).toEqual(['14-Nov-2026']);
    expect(dates('see 32-Nov-94 and abc-Nov-12')).toEqual([]);
  });
});
