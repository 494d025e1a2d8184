/**
 * Handle identities (kind and verbatim text) read from SQLite without building `Handle`s: the rows of a seq range
 * (`LedgerStore.handleIdentities`) and the carried handles a checkpoint chain names (`chainHandleIdentities`). A
 * handle row's text is its own `text` column, else its span's text at `[start, end)` (`handle-rows.ts`); a carried
 * handle is a reference to a handle row, read in the same query, or its own JSON.
 */
import type Database from 'better-sqlite3';
import { StoreOperationError } from '../../errors.js';
import { identityOfJson, type ChainHandles } from '../chain-identities.js';
import { brokenRow, sparseIds } from '../record-handles.js';
import type { HandleIdentity } from '../store.js';
import { kindOfRow } from './handle-rows.js';
import type { SqliteContext } from './sqlite-context.js';

/** A handle row's columns an identity needs, as a raw row (`RAW_COLUMNS`, in that order). */
type RawIdentityRow = [
  seq: number,
  position: number,
  kind: number | string,
  start: number,
  end: number,
  text: string | null,
];

/** The columns of a `RawIdentityRow`. */
const RAW_COLUMNS = 'seq, position, kind, start, "end", text';

/** A handle row's columns an identity needs. */
interface IdentityRow {
  seq: number;
  position: number;
  kind: number | string;
  start: number;
  end: number;
  text: string | null;
}

/** A carried-handle row with the handle row it names (its columns NULL when it names none). */
interface CarriedIdentityRow {
  id: number;
  json: string | null;
  seq: number | null;
  position: number | null;
  kind: number | string | null;
  start: number | null;
  end: number | null;
  text: string | null;
}

const CARRIED_JOIN = `SELECT c.id, c.json, h.seq, h.position, h.kind, h.start, h."end", h.text FROM carried_handles c
  LEFT JOIN handle_rows h ON h.session = c.session AND h.seq = c.seq AND h.position = c.position WHERE c.session = ?`;

/** Identity reads of one SQLite store. */
export class SqliteHandleIdentities {
  private readonly rangeRows: Database.Statement<[number, number, number], RawIdentityRow>;
  private readonly carriedBetween: Database.Statement<[number, number, number], CarriedIdentityRow>;
  private readonly carriedOne: Database.Statement<[number, number], CarriedIdentityRow>;

  constructor(private readonly context: SqliteContext) {
    const { db } = context;
    // Raw rows (arrays): a range holds hundreds of thousands of rows, and an object per row cost half the read.
    this.rangeRows = (
      db.prepare(
        `SELECT ${RAW_COLUMNS} FROM handle_rows WHERE session = ? AND seq BETWEEN ? AND ? ORDER BY seq, start, position`,
      ) as Database.Statement<[number, number, number], RawIdentityRow>
    ).raw(true);
    this.carriedBetween = db.prepare(`${CARRIED_JOIN} AND c.id BETWEEN ? AND ?`) as Database.Statement<
      [number, number, number],
      CarriedIdentityRow
    >;
    this.carriedOne = db.prepare(`${CARRIED_JOIN} AND c.id = ?`) as Database.Statement<
      [number, number],
      CarriedIdentityRow
    >;
  }

  /** Identities of the session's handle rows in `[fromSeq, toSeq]`, in `handles()` order. */
  range(sessionId: string, session: number, fromSeq: number, toSeq: number): HandleIdentity[] {
    const text = this.spanTexts(sessionId);
    return this.rangeRows.all(session, fromSeq, toSeq).map(([seq, position, kind, start, end, stored]) => ({
      kind: kindOfRow(kind),
      text: stored ?? text(seq, position).slice(start, end),
      seq,
      start,
    }));
  }

  /**
   * Add to `chain` the identities of its carried-handle ids, each read once (their id range, or id by id when sparse);
   * `headId` names the chain in the error of an id that is missing.
   */
  carried(sessionId: string, session: number, headId: string, chain: ChainHandles): void {
    const ids = [...chain.ids].sort((a, b) => a - b);
    const low = ids[0];
    const high = ids[ids.length - 1];
    if (low === undefined || high === undefined) return;
    const sparse = sparseIds([ids], low, high);
    const rows =
      sparse === undefined
        ? this.carriedBetween.all(session, low, high)
        : sparse.flatMap((id) => this.carriedOne.all(session, id));
    const found = new Map(rows.map((row) => [row.id, row]));
    const references: IdentityRow[] = [];
    for (const id of ids) {
      const row = found.get(id);
      if (row?.json != null) chain.add(identityOfJson(JSON.parse(row.json)));
      else if (row?.seq != null && row.kind !== null) references.push(row as IdentityRow);
      else
        throw brokenRow(
          { location: this.context.location, sessionId, recordId: headId },
          `carried handle ${id} its checkpoint chain names is missing`,
        );
    }
    // By seq, so each span's text is read once.
    const text = this.spanTexts(sessionId);
    for (const row of references.sort((a, b) => a.seq - b.seq))
      chain.add({
        kind: kindOfRow(row.kind),
        text: row.text ?? text(row.seq, row.position).slice(row.start, row.end),
        seq: row.seq,
        start: row.start,
      });
  }

  /**
   * The span text of the seq of a handle row (at `position`): held from a recent append, else read; the last seq's is
   * kept, so rows read in seq order read each text once.
   */
  private spanTexts(sessionId: string): (seq: number, position: number) => string {
    const { statements, recent, location } = this.context;
    let lastSeq = -1;
    let lastText: string | undefined;
    return (seq, position) => {
      if (seq !== lastSeq) {
        lastSeq = seq;
        lastText = (recent.source(sessionId, seq) ?? statements.handleSource.get(sessionId, seq))?.text;
      }
      if (lastText !== undefined) return lastText;
      throw new StoreOperationError(
        `${location}: handle ${position} of seq ${seq} in session ${sessionId} has no occurrence to be read ` +
          'from; the ledger file was changed below the store. Restore it from a backup.',
        { location, operation: `read handles of session ${sessionId}`, sessionId, seq },
      );
    };
  }
}
