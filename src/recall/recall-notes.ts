/**
 * The notes recall gives the model when nothing verified was found: a gap names the lossy record, its range and what
 * to do (re-read the source, ask the user), never "recall it" again; "never said" says why it is not a gap and names
 * the closest stored handles, so a misremembered detail can be told from one that was never there.
 */
import { droppedRangeWords } from '../text/range-wording.js';
import { asSentence, counted } from '../text/wording.js';
import type { CompactionRecord } from '../types.js';
import type { ClosestHandle } from './closest-handles.js';
import type { Gap } from '../model/gaps.js';

/** The note of a gap a lossy record stands for. */
export function lossyGapNote(gap: Gap | null): string {
  const range = gap ? ` (${droppedRangeWords(gap.droppedRange, { bytes: false })})` : '';
  return (
    `Not in any stored original the handle index reaches, and record ${gap?.recordId ?? '?'}${range} is lossy: ` +
    `treat this as a known gap. ${gap ? `${asSentence(gap.reread)} ` : ''}` +
    'Any results shown are unverified context, not memory.'
  );
}

/** Characters of a handle shown in a note. */
const SHOWN_CHARS = 80;

const shortened = (text: string) => (text.length > SHOWN_CHARS ? `${text.slice(0, SHOWN_CHARS - 1)}…` : text);

/** "Never said", why it is not a gap (`covered`: the external records whose originals are stored), and the closest. */
export function neverSaidNote(
  records: readonly CompactionRecord[],
  covered: ReadonlySet<string>,
  closest: readonly ClosestHandle[],
): string {
  const external = records.filter((record) => covered.has(record.id));
  const last = external[external.length - 1];
  const earlier =
    external.length > 1
      ? `, like those of ${counted(external.length - 1, 'earlier summary', 'earlier summaries')}`
      : '';
  const why = last
    ? `record ${last.id} is an external summary (lossy), but every original it replaced ` +
      `(${droppedRangeWords(last.droppedRange, { bytes: false })}${earlier}) is stored and checks, so this is not a gap`
    : 'every compaction is lossless and every transcript line was ingested';
  const near =
    closest.length === 0
      ? ''
      : ` Closest stored handles: ${closest.map((handle) => `${JSON.stringify(shortened(handle.text))} (seq ${handle.seq})`).join(', ')}.`;
  return `Nothing in this session matches, and ${why}: it was never said in this session.${near}`;
}
