/**
 * What a session remembers of every record (`RecordSummary`), in columns. A long replay makes tens of thousands of
 * records and releases them from memory; one object per summary (about 280 bytes with its id string and the range,
 * ancestor and finding objects it kept alive) grew the heap with every compaction. A row here costs about 90 bytes:
 * the numbers in a Float64Array, a content-addressed id as its 12 digest bytes, ancestors as row numbers. Ids of
 * another form, ancestors the table does not find nearby and findings (lossy records only) are kept as given.
 */
import type { CompactionRecord, DroppedRange, Finding } from '../types.js';

/** What a session remembers of every record, held or not. */
export interface RecordSummary {
  readonly id: string;
  readonly type: CompactionRecord['type'];
  readonly depth: number;
  readonly reversible: boolean;
  /** How many handles the record carries. */
  readonly handles: number;
  readonly droppedRange: DroppedRange;
  readonly summaryTokens: number;
  readonly ancestors: readonly string[];
  readonly findings: readonly Finding[];
}

const TYPES: readonly CompactionRecord['type'][] = ['summary', 'checkpoint', 'external'];
const ID_PREFIXES = ['rec', 'chk', 'ext'] as const;
const CONTENT_ID = /^(rec|chk|ext)_([0-9a-f]{24})$/u;
const ID_BYTES = 12;

/** Columns of a row, in `numbers`. */
const FLAGS = 0;
const DEPTH = 1;
const HANDLES = 2;
const FROM_SEQ = 3;
const TO_SEQ = 4;
const BYTE_START = 5;
const BYTE_END = 6;
const SUMMARY_TOKENS = 7;
/** End (exclusive) of the row's ancestors in `ancestorRows`; they start where the previous row's end. */
const ANCESTORS_END = 8;
const COLUMNS = 9;

/** `FLAGS`: the type's index in bits 0-1, reversible in bit 2, the id prefix's index + 1 above (0: id kept as given). */
const REVERSIBLE_BIT = 4;
const PREFIX_SHIFT = 3;

/** How many rows back an ancestor is looked for (a compaction's ancestors are the records just before it). */
const ANCESTOR_LOOKBACK = 256;

/** Every record's summary, oldest first, in columns (see the module comment). */
export class RecordSummaryTable {
  private rows = 0;
  private numbers = new Float64Array(COLUMNS * 64);
  private idBytes = new Uint8Array(ID_BYTES * 64);
  private ancestorRows = new Int32Array(64);
  private ancestorCount = 0;
  private readonly otherIds = new Map<number, string>();
  private readonly otherAncestors = new Map<number, readonly string[]>();
  private readonly findingLists = new Map<number, readonly Finding[]>();

  /** How many summaries the table holds. */
  get size(): number {
    return this.rows;
  }

  /** Append the summary of `record`, the session's next record. */
  add(record: CompactionRecord): void {
    const row = this.rows;
    this.reserve(row + 1, this.ancestorCount + record.ancestors.length);
    const prefix = this.storeId(row, record.id);
    const base = row * COLUMNS;
    const numbers = this.numbers;
    numbers[base + FLAGS] =
      TYPES.indexOf(record.type) | (record.reversible ? REVERSIBLE_BIT : 0) | (prefix << PREFIX_SHIFT);
    numbers[base + DEPTH] = record.depth;
    numbers[base + HANDLES] = record.handles.length;
    numbers[base + FROM_SEQ] = record.droppedRange.fromSeq;
    numbers[base + TO_SEQ] = record.droppedRange.toSeq;
    numbers[base + BYTE_START] = record.droppedRange.byteStart;
    numbers[base + BYTE_END] = record.droppedRange.byteEnd;
    numbers[base + SUMMARY_TOKENS] = record.summaryTokens;
    this.storeAncestors(row, record.ancestors);
    numbers[base + ANCESTORS_END] = this.ancestorCount;
    if (record.findings.length > 0) this.findingLists.set(row, record.findings);
    this.rows = row + 1;
  }

  /** The summary in row `row` (0 is the oldest record). */
  at(row: number): RecordSummary {
    if (!Number.isInteger(row) || row < 0 || row >= this.rows) throw new RangeError(`no record summary at row ${row}`);
    const base = row * COLUMNS;
    const numbers = this.numbers;
    const flags = numbers[base + FLAGS] as number;
    return {
      id: this.idAt(row),
      type: TYPES[flags & 3] as CompactionRecord['type'],
      depth: numbers[base + DEPTH] as number,
      reversible: (flags & REVERSIBLE_BIT) !== 0,
      handles: numbers[base + HANDLES] as number,
      droppedRange: {
        fromSeq: numbers[base + FROM_SEQ] as number,
        toSeq: numbers[base + TO_SEQ] as number,
        byteStart: numbers[base + BYTE_START] as number,
        byteEnd: numbers[base + BYTE_END] as number,
      },
      summaryTokens: numbers[base + SUMMARY_TOKENS] as number,
      ancestors: this.ancestorsAt(row),
      findings: this.findingLists.get(row) ?? [],
    };
  }

  /** Every summary, oldest first. */
  all(): RecordSummary[] {
    const summaries: RecordSummary[] = [];
    for (let row = 0; row < this.rows; row++) summaries.push(this.at(row));
    return summaries;
  }

  /** Grow the arrays to hold `rows` rows and `ancestors` ancestor row numbers. */
  private reserve(rows: number, ancestors: number): void {
    if (rows * COLUMNS > this.numbers.length) {
      const capacity = Math.max(rows, (this.numbers.length / COLUMNS) * 2);
      this.numbers = grown(this.numbers, new Float64Array(capacity * COLUMNS));
      this.idBytes = grown(this.idBytes, new Uint8Array(capacity * ID_BYTES));
    }
    if (ancestors > this.ancestorRows.length)
      this.ancestorRows = grown(this.ancestorRows, new Int32Array(Math.max(ancestors, this.ancestorRows.length * 2)));
  }

  /** Store `id` for `row`; returns its prefix's index + 1, or 0 when the id is kept as given. */
  private storeId(row: number, id: string): number {
    const packed = packedId(id);
    if (!packed) {
      this.otherIds.set(row, id);
      return 0;
    }
    this.idBytes.set(packed.digest, row * ID_BYTES);
    return packed.prefix;
  }

  private idAt(row: number): string {
    const prefix = ((this.numbers[row * COLUMNS + FLAGS] as number) >> PREFIX_SHIFT) - 1;
    if (prefix < 0) return this.otherIds.get(row) as string;
    const digest = Buffer.from(this.idBytes.buffer, this.idBytes.byteOffset + row * ID_BYTES, ID_BYTES);
    return `${ID_PREFIXES[prefix] as string}_${digest.toString('hex')}`;
  }

  /** Ancestors as row numbers when each is found among the rows just before `row`; else the list as given. */
  private storeAncestors(row: number, ancestors: readonly string[]): void {
    const found: number[] = [];
    for (const id of ancestors) {
      const at = this.rowOf(id, row);
      if (at < 0) {
        this.otherAncestors.set(row, ancestors);
        return;
      }
      found.push(at);
    }
    this.ancestorRows.set(found, this.ancestorCount);
    this.ancestorCount += found.length;
  }

  private ancestorsAt(row: number): readonly string[] {
    const given = this.otherAncestors.get(row);
    if (given) return given;
    const start = row === 0 ? 0 : (this.numbers[(row - 1) * COLUMNS + ANCESTORS_END] as number);
    const end = this.numbers[row * COLUMNS + ANCESTORS_END] as number;
    const ids: string[] = [];
    for (let index = start; index < end; index++) ids.push(this.idAt(this.ancestorRows[index] as number));
    return ids;
  }

  /** The row before `before` (at most `ANCESTOR_LOOKBACK` back) whose id is `id`, or -1. */
  private rowOf(id: string, before: number): number {
    const last = Math.max(0, before - ANCESTOR_LOOKBACK);
    const packed = packedId(id);
    if (!packed) {
      for (let row = before - 1; row >= last; row--) if (this.otherIds.get(row) === id) return row;
      return -1;
    }
    const { prefix, digest } = packed;
    const bytes = this.idBytes;
    for (let row = before - 1; row >= last; row--) {
      if ((this.numbers[row * COLUMNS + FLAGS] as number) >> PREFIX_SHIFT !== prefix) continue;
      let same = true;
      for (let index = 0, at = row * ID_BYTES; same && index < ID_BYTES; index++, at++)
        same = bytes[at] === digest[index];
      if (same) return row;
    }
    return -1;
  }
}

/** A content-addressed id as its prefix's index + 1 and its 12 digest bytes; undefined for an id of another form. */
function packedId(id: string): { readonly prefix: number; readonly digest: Buffer } | undefined {
  const match = CONTENT_ID.exec(id);
  if (!match) return undefined;
  const prefix = ID_PREFIXES.indexOf(match[1] as (typeof ID_PREFIXES)[number]) + 1;
  return { prefix, digest: Buffer.from(match[2] as string, 'hex') };
}

function grown<T extends Float64Array | Uint8Array | Int32Array>(from: T, to: T): T {
  to.set(from as never);
  return to;
}
