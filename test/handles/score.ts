/**
 * Precision/recall scoring of the extractor against labelled strings. Per string, the
 * extracted `(kind, text)` multiset is matched against the expected multiset; counts are
 * summed per kind over the whole set.
 */
import type { HandleKind } from '../../src/types.js';
import { HANDLE_KINDS } from '../../src/types.js';
import { extractHandles } from '../../src/handles/extract.js';

/** A labelled string: the complete multiset of handles it should yield. */
export interface LabelledText {
  /** The input. */
  readonly text: string;
  /** Every expected handle. */
  readonly expect: ReadonlyArray<{ readonly kind: HandleKind; readonly text: string }>;
}

/** Counts and rates for one kind. */
export interface KindScore {
  /** tp / (tp + fp), 1 when nothing was extracted. */
  readonly precision: number;
  /** tp / (tp + fn), 1 when nothing was expected. */
  readonly recall: number;
  /** Extracted and expected. */
  readonly tp: number;
  /** Extracted, not expected. */
  readonly fp: number;
  /** Expected, not extracted. */
  readonly fn: number;
}

/** One disagreement between the extractor and a label. */
export interface ScoreMiss {
  /** `fp` (extracted, not expected) or `fn` (expected, missed). */
  readonly type: 'fp' | 'fn';
  /** The kind. */
  readonly kind: HandleKind;
  /** The handle text. */
  readonly text: string;
  /** The fixture string it belongs to. */
  readonly input: string;
}

/** The result of {@link scoreExtraction}. */
export interface ExtractionScore {
  /** Per-kind scores. */
  readonly kinds: Record<HandleKind, KindScore>;
  /** Every false positive and false negative, in fixture order. */
  readonly misses: readonly ScoreMiss[];
  /** Number of labelled strings scored. */
  readonly fixtures: number;
}

/** Scores `extractHandles` over labelled strings, per kind. */
export function scoreExtraction(fixtures: readonly LabelledText[]): ExtractionScore {
  const counts = new Map<HandleKind, { tp: number; fp: number; fn: number }>(
    HANDLE_KINDS.map((kind) => [kind, { tp: 0, fp: 0, fn: 0 }]),
  );
  const misses: ScoreMiss[] = [];
  for (const fixture of fixtures) {
    const expected = new Map<string, number>();
    for (const item of fixture.expect)
      expected.set(`${item.kind}\u0000${item.text}`, (expected.get(`${item.kind}\u0000${item.text}`) ?? 0) + 1);
    // The labels of these sets predate prose bindings ("the entry point is src/main.ts" as an assignment): those are
    // scored on their own set by test/handles/bindings.test.ts.
    for (const handle of extractHandles(fixture.text, { bindings: false })) {
      const id = `${handle.kind}\u0000${handle.text}`;
      const left = expected.get(id) ?? 0;
      const count = counts.get(handle.kind);
      if (count === undefined) continue;
      if (left > 0) {
        expected.set(id, left - 1);
        count.tp++;
      } else {
        count.fp++;
        misses.push({ type: 'fp', kind: handle.kind, text: handle.text, input: fixture.text });
      }
    }
    for (const [id, left] of expected) {
      const [kind, text = ''] = id.split('\u0000') as [HandleKind, string];
      for (let index = 0; index < left; index++) {
        const count = counts.get(kind);
        if (count !== undefined) count.fn++;
        misses.push({ type: 'fn', kind, text, input: fixture.text });
      }
    }
  }
  const kinds = {} as Record<HandleKind, KindScore>;
  for (const [kind, { tp, fp, fn }] of counts) {
    kinds[kind] = {
      precision: tp + fp === 0 ? 1 : tp / (tp + fp),
      recall: tp + fn === 0 ? 1 : tp / (tp + fn),
      tp,
      fp,
      fn,
    };
  }
  return { kinds, misses, fixtures: fixtures.length };
}
