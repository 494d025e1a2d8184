import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_RANK_WEIGHTS } from '../../src/ranking/rank-weights.js';
import { handleFeatures } from '../../src/ranking/rank-handles.js';
import type { RankEvidence, RankSpan } from '../../src/ranking/rank-evidence.js';
import { SlidingTally } from '../../src/ranking/sliding-tally.js';
import type { TallySeq } from '../../src/ranking/sliding-tally.js';
import type { Handle, HandleKind, Role } from '../../src/types.js';

const TEXTS = ['src/app.ts', 'deploy.sh', 'PORT=8080', 'must not touch prod', 'do not delete', 'v1.2.3', 'main'];
const KINDS: HandleKind[] = ['path', 'identifier', 'assignment', 'constraint', 'version'];
const ROLES: Role[] = ['user', 'assistant', 'tool', 'system'];

/** Span contents by span id (a span id is one content wherever it occurs): tool calls running commands, bulky or small results. */
const SPANS: RankSpan[] = [
  { kind: 'tool-call', toolName: 'Bash', tokens: 20, text: '{"command":"sh deploy.sh main"}' },
  { kind: 'tool-call', toolName: 'Edit', tokens: 30, text: '{"file_path":"src/app.ts","old_string":"a"}' },
  { kind: 'tool-result', toolName: 'Bash', tokens: 900, text: '' },
  { kind: 'tool-result', toolName: 'Read', tokens: 40, text: '' },
  { kind: 'user', toolName: undefined, tokens: 12, text: '' },
  { kind: 'assistant', toolName: undefined, tokens: 15, text: '' },
];

const row = fc.record({
  text: fc.constantFrom(...TEXTS),
  kind: fc.constantFrom(...KINDS),
  role: fc.constantFrom(...ROLES),
});
const seqSpec = fc.record({ span: fc.nat({ max: SPANS.length * 2 - 1 }), rows: fc.array(row, { maxLength: 5 }) });

/** The seqs of a session: span ids from a small pool (so ids repeat across seqs) and their handle rows. */
function buildSeqs(
  specs: readonly { span: number; rows: readonly { text: string; kind: HandleKind; role: Role }[] }[],
) {
  return specs.map((spec, seq): TallySeq => {
    const spanId = `sha256:${spec.span}`;
    const rows = spec.rows.map((item, index): Handle => ({
      ...item,
      key: item.text.toLowerCase(),
      start: index,
      end: index + item.text.length,
      spanId,
      seq,
      tokens: Math.ceil(item.text.length / 4),
    }));
    return { spanId, span: SPANS[spec.span % SPANS.length], rows };
  });
}

/** The evidence a compaction of `[fromSeq, toSeq]` ranks with (no tallies given: `rank-handles` tallies it). */
function evidenceOf(seqs: readonly TallySeq[], fromSeq: number, toSeq: number): RankEvidence {
  const spans = new Map<string, RankSpan>();
  const occurrences: Handle[] = [];
  for (const entry of seqs.slice(fromSeq, toSeq + 1)) {
    if (entry.span) spans.set(entry.spanId, entry.span);
    occurrences.push(...entry.rows);
  }
  return { occurrences, spans, fromSeq, toSeq };
}

/** Whether a span id holding a requirement (a quoted tool constraint) occurs at two seqs of the stretch. */
function specSpansAcrossSeqs(seqs: readonly TallySeq[], fromSeq: number, toSeq: number): boolean {
  const stretch = seqs.slice(fromSeq, toSeq + 1);
  return stretch.some((entry, index) =>
    stretch.some(
      (other, at) =>
        at !== index &&
        other.spanId === entry.spanId &&
        entry.rows.some((handle) => handle.kind === 'constraint' && handle.role === 'tool'),
    ),
  );
}

describe('SlidingTally', () => {
  it('gives the features tallying the stretch from scratch gives, as it moves (forward, and back)', () => {
    let used = 0;
    fc.assert(
      fc.property(
        fc.array(seqSpec, { minLength: 1, maxLength: 40 }),
        fc.array(fc.record({ from: fc.nat({ max: 45 }), length: fc.nat({ max: 25 }) }), {
          minLength: 1,
          maxLength: 12,
        }),
        (specs, moves) => {
          const seqs = buildSeqs(specs);
          const sliding = new SlidingTally(DEFAULT_RANK_WEIGHTS.bulkyResultTokens);
          for (const move of moves) {
            const fromSeq = Math.min(move.from, seqs.length - 1);
            const toSeq = Math.min(seqs.length - 1, fromSeq + move.length);
            expect(sliding.moveTo(fromSeq, toSeq, (seq) => seqs[seq])).toBe(true);
            const evidence = evidenceOf(seqs, fromSeq, toSeq);
            const tallies = sliding.tallies();
            expect(tallies === undefined).toBe(specSpansAcrossSeqs(seqs, fromSeq, toSeq));
            if (tallies === undefined) continue;
            used++;
            const candidates = evidence.occurrences;
            const fresh = handleFeatures(candidates, evidence);
            const kept = handleFeatures(candidates, { ...evidence, tallies });
            for (const handle of candidates) expect(kept.get(handle)).toEqual(fresh.get(handle));
          }
        },
      ),
      { numRuns: 300, seed: 13 },
    );
    expect(used).toBeGreaterThan(100);
  });

  it('answers undefined when a spec span occurs at two seqs, and again once one of them has left', () => {
    const specs = [
      { span: 3, rows: [{ text: 'must not touch prod', kind: 'constraint' as const, role: 'tool' as const }] },
      { span: 4, rows: [{ text: 'src/app.ts', kind: 'path' as const, role: 'user' as const }] },
      { span: 3, rows: [{ text: 'must not touch prod', kind: 'constraint' as const, role: 'tool' as const }] },
    ];
    const seqs = buildSeqs(specs);
    const sliding = new SlidingTally(DEFAULT_RANK_WEIGHTS.bulkyResultTokens);
    expect(sliding.moveTo(0, 1, (seq) => seqs[seq])).toBe(true);
    expect(sliding.tallies()).toBeDefined();
    expect(sliding.moveTo(0, 2, (seq) => seqs[seq])).toBe(true);
    // Two requirements of one span id: a spec only when counted over both seqs at once.
    expect(sliding.tallies()).toBeUndefined();
    expect(sliding.moveTo(1, 2, (seq) => seqs[seq])).toBe(true);
    expect(sliding.tallies()?.byIdentity.get('path\u0000src/app.ts')?.userSaid).toBe(true);
  });

  it('reports a seq it cannot read and starts again from empty', () => {
    const seqs = buildSeqs([
      { span: 0, rows: [] },
      { span: 1, rows: [] },
    ]);
    const sliding = new SlidingTally(DEFAULT_RANK_WEIGHTS.bulkyResultTokens);
    expect(sliding.moveTo(0, 2, (seq) => seqs[seq])).toBe(false);
    expect(sliding.end).toBe(0);
    expect(sliding.moveTo(0, 1, (seq) => seqs[seq])).toBe(true);
    expect(sliding.end).toBe(2);
  });
});
