import { describe, expect, it } from 'vitest';
import { FAMILY_MIN_MEMBERS, familyShape, familySizes } from '../../src/ranking/handle-families.js';
import { handleFeatures, rankHandles } from '../../src/ranking/rank-handles.js';
import type { RankEvidence, RankSpan } from '../../src/ranking/rank-evidence.js';
import { createSpan } from '../../src/model/span.js';
import type { Handle, HandleKind, Role } from '../../src/types.js';

/** One occurrence of `text` in the span `spanId` at `seq`. */
function occurrence(text: string, kind: HandleKind, seq: number, spanId: string, role: Role = 'tool'): Handle {
  return { kind, text, key: text.toLowerCase(), start: 0, end: text.length, spanId, seq, role, tokens: 4 };
}

/**
 * A session of repeated test runs (each a small tool result listing `rows` test ids, all of them each time) and one
 * config file read once, stating two settings.
 */
function listingSession(rows: number, runs: number) {
  const spans = new Map<string, RankSpan>();
  const occurrences: Handle[] = [];
  let seq = 0;
  const ids = Array.from({ length: rows }, (_, index) => `test_case_${index + 1}`);
  const config = createSpan({ kind: 'tool-result', text: 'write_primary: db-rw-12.corp\nDB_HOST=db-ro-4', tokens: 20 });
  spans.set(config.id, config);
  occurrences.push(occurrence('write_primary: db-rw-12.corp', 'assignment', seq, config.id));
  occurrences.push(occurrence('DB_HOST=db-ro-4', 'assignment', seq++, config.id));
  for (let run = 0; run < runs; run++) {
    const text = ids.map((id) => `${id} PASSED timeout=${run + 1}`).join('\n') + `\n(run ${run})`;
    const span = createSpan({ kind: 'tool-result', text, tokens: 120 });
    spans.set(span.id, span);
    for (const id of ids) occurrences.push(occurrence(id, 'identifier', seq, span.id));
    occurrences.push(occurrence(`timeout=${run + 1}`, 'assignment', seq, span.id));
    seq++;
  }
  const first = new Map<string, Handle>();
  for (const handle of occurrences) if (!first.has(handle.text)) first.set(handle.text, handle);
  const evidence: RankEvidence = { occurrences, spans, fromSeq: 0, toSeq: seq - 1 };
  return { handles: [...first.values()], evidence };
}

describe('handle families: the rows of a listing', () => {
  it('gives handles that differ only in numbers or hex ids one shape, per kind, and values none', () => {
    const shape = (text: string, kind: HandleKind = 'identifier') => familyShape({ kind, text });
    expect(shape('test_case_12')).toBe(shape('test_case_57'));
    expect(shape('req-3fa9c1')).toBe(shape('req-0b77de'));
    expect(shape('tests/test_api_4.py', 'path')).toBe(shape('tests/test_api_19.py', 'path'));
    expect(shape('test_case_12')).not.toBe(shape('test_case_12', 'path'));
    expect(shape('test_case_12')).not.toBe(shape('test_run_12'));
    expect(shape('refund_rounding')).toBeUndefined();
    expect(shape('1.2.3', 'version')).toBeUndefined();
    expect(shape('10.0.0.4', 'endpoint')).toBeUndefined();
    expect(shape('E123 missing', 'error')).toBeUndefined();
    const sizes = familySizes(['row-1', 'row-2', 'row-3', 'cell-1'].map((text) => ({ kind: 'identifier', text })));
    expect(sizes.get(shape('row-9') as string)).toBe(3);
    expect(sizes.get(shape('cell-9') as string)).toBe(1);
  });

  it('ranks a setting read once above the rows of a listing printed again and again', () => {
    const { handles, evidence } = listingSession(12, 20);
    const ranked = rankHandles(handles, evidence).map((entry) => entry.handle.text);
    const setting = ranked.indexOf('write_primary: db-rw-12.corp');
    const rows = handles
      .filter((handle) => /^test_case_|^timeout=/.test(handle.text))
      .map((h) => ranked.indexOf(h.text));
    expect(setting).toBeGreaterThanOrEqual(0);
    expect(Math.min(...rows)).toBeGreaterThan(setting);
    expect(ranked.indexOf('DB_HOST=db-ro-4')).toBeLessThan(Math.min(...rows));
  });

  it('marks rows only in a family of FAMILY_MIN_MEMBERS or more, seen only in tool output', () => {
    const small = listingSession(FAMILY_MIN_MEMBERS - 1, 3);
    const large = listingSession(FAMILY_MIN_MEMBERS, 3);
    const rowOf = (session: ReturnType<typeof listingSession>) =>
      handleFeatures(session.handles, session.evidence).get(
        session.handles.find((handle) => handle.text === 'test_case_1') as Handle,
      )?.listingRow;
    expect(rowOf(small)).toBe(false);
    expect(rowOf(large)).toBe(true);
    // The same row said by the user is judged on what the user said, not as a listing's row.
    const said = occurrence('test_case_1', 'identifier', 99, 'sha256:user', 'user');
    const withUser = { ...large.evidence, occurrences: [...large.evidence.occurrences, said] };
    const features = handleFeatures(large.handles, withUser);
    expect(features.get(large.handles.find((handle) => handle.text === 'test_case_1') as Handle)?.listingRow).toBe(
      false,
    );
  });

  it("reads a tool's timing (`13.633s`, `7564ms`) as a listing's row, and the same said in prose as a number", () => {
    const { evidence } = listingSession(2, 1);
    const row = (text: string, role: Role = 'tool') => {
      const handle = occurrence(text, 'number', 0, 'sha256:t', role);
      return handleFeatures([handle], { ...evidence, occurrences: [handle] }).get(handle)?.listingRow;
    };
    expect(row('13.633s')).toBe(true);
    expect(row('7564ms')).toBe(true);
    expect(row('(3.33s)')).toBe(true);
    expect(row('13.633s', 'assistant')).toBe(false);
    expect(row('5 hours')).toBe(false);
    expect(row('8080')).toBe(false);
  });

  it('tells markup in tool output from markup the agent wrote', () => {
    const { evidence } = listingSession(2, 1);
    const features = (text: string, kind: HandleKind, role: Role = 'tool') => {
      const handle = occurrence(text, kind, 0, 'sha256:x', role);
      return handleFeatures([handle], { ...evidence, occurrences: [handle] }).get(handle);
    };
    expect(features('#a1b2c3', 'identifier')?.markup).toBe(true);
    expect(features('class="row row-2"', 'assignment')?.markup).toBe(true);
    expect(features('#a1b2c3', 'identifier', 'assistant')?.markup).toBe(false);
    expect(features('db-rw-12.corp', 'endpoint')?.markup).toBe(false);
  });
});
