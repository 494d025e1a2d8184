/**
 * RecordSummaryTable: what it gives back is exactly the record's own fields, for every id form, ancestor lists found
 * and not found nearby, findings, and byte offsets past 32 bits.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RecordSummaryTable, type RecordSummary } from '../../src/model/record-summary-table.js';
import type { CompactionRecord, Finding } from '../../src/types.js';
import { summaryRecord } from '../helpers.js';

function record(fields: Partial<CompactionRecord> & Pick<CompactionRecord, 'id'>): CompactionRecord {
  return summaryRecord({ summaryTokens: 10, ...fields });
}

/** The plain summary of a record, field by field (what a session kept before the table). */
function expected(of: CompactionRecord): RecordSummary {
  return {
    id: of.id,
    type: of.type,
    depth: of.depth,
    reversible: of.reversible,
    handles: of.handles.length,
    droppedRange: { ...of.droppedRange },
    summaryTokens: of.summaryTokens,
    ancestors: [...of.ancestors],
    findings: [...of.findings],
  };
}

const hex = (n: number) => n.toString(16).padStart(24, '0');
const lossy: Finding = { code: 'altered-handle', message: 'eu-west-1 became eu-west-2', token: 'eu-west-2' };

describe('RecordSummaryTable', () => {
  it('gives back every field of records of each type, id form, ancestry and size', () => {
    const records = [
      record({ id: `chk_${hex(1)}`, type: 'checkpoint', depth: 0, handles: [{ kind: 'path', text: '/a' } as never] }),
      record({ id: `rec_${hex(2)}`, ancestors: [], findings: [lossy], reversible: false }),
      record({ id: 'imported-by-hand', type: 'external', reversible: false, depth: 1 }),
      record({ id: `rec_${hex(3)}`, depth: 2, ancestors: [`rec_${hex(2)}`, 'imported-by-hand'] }),
      record({ id: `rec_${hex(4)}`, ancestors: ['never-stored', `rec_${hex(3)}`] }),
      record({
        id: `ext_${hex(5)}`,
        type: 'external',
        droppedRange: { fromSeq: 3_000_000_000, toSeq: 3_000_000_009, byteStart: 2 ** 40, byteEnd: 2 ** 40 + 7 },
      }),
    ];
    const table = new RecordSummaryTable();
    for (const each of records) table.add(each);
    expect(table.size).toBe(records.length);
    expect(table.all()).toEqual(records.map(expected));
    expect(table.at(3).ancestors).toEqual([`rec_${hex(2)}`, 'imported-by-hand']);
    expect(() => table.at(records.length)).toThrow(RangeError);
  });

  it('keeps an ancestor further back than it looks as the id given', () => {
    const table = new RecordSummaryTable();
    const all: CompactionRecord[] = [];
    for (let index = 0; index < 400; index++) {
      const each = record({
        id: `rec_${hex(index)}`,
        ancestors: index === 399 ? [`rec_${hex(0)}`, `rec_${hex(398)}`] : [],
      });
      all.push(each);
      table.add(each);
    }
    expect(table.at(399).ancestors).toEqual([`rec_${hex(0)}`, `rec_${hex(398)}`]);
    expect(table.all()).toEqual(all.map(expected));
  });

  it('round-trips random records (property)', () => {
    const id = fc.oneof(
      fc.tuple(fc.constantFrom('rec', 'chk', 'ext'), fc.stringMatching(/^[0-9a-f]{24}$/)).map(([p, h]) => `${p}_${h}`),
      fc.string({ minLength: 1, maxLength: 30 }),
    );
    const fields = fc.record({
      id,
      type: fc.constantFrom<CompactionRecord['type']>('summary', 'checkpoint', 'external'),
      depth: fc.nat(50),
      reversible: fc.boolean(),
      fromSeq: fc.nat(),
      span: fc.nat(10_000),
      byteStart: fc.maxSafeNat(),
      summaryTokens: fc.nat(100_000),
      handles: fc.nat(5),
      ancestorPicks: fc.array(fc.nat(), { maxLength: 3 }),
      finding: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.array(fields, { maxLength: 40 }), (rows) => {
        const table = new RecordSummaryTable();
        const added: CompactionRecord[] = [];
        for (const row of rows) {
          const ancestors = added.length === 0 ? [] : row.ancestorPicks.map((pick) => added[pick % added.length]!.id);
          const each = record({
            id: row.id,
            type: row.type,
            depth: row.depth,
            reversible: row.reversible,
            droppedRange: {
              fromSeq: row.fromSeq,
              toSeq: row.fromSeq + row.span,
              byteStart: row.byteStart,
              byteEnd: row.byteStart + row.span,
            },
            summaryTokens: row.summaryTokens,
            handles: Array.from({ length: row.handles }, (_, index) => ({ kind: 'path', text: `/f${index}` }) as never),
            ancestors,
            findings: row.finding ? [lossy] : [],
          });
          added.push(each);
          table.add(each);
        }
        expect(table.all()).toEqual(added.map(expected));
      }),
      { numRuns: 200 },
    );
  });
});
