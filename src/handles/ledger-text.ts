/**
 * The ledger block's own fixed text (`src/window/window.ts`): its headings and its closing
 * instruction. When the block comes back as transcript text (a hook's output echoed, a file
 * holding a saved block) these lines are the ledger talking, not a rule anyone set, so they are
 * never constraints. Matched on the sentence with spaces collapsed and case folded. The wording itself lives in
 * `src/text/block-headings.ts`, shared with the block that writes it.
 */
import { GAPS_HEADING, RECALL_HINT, SECTION_HEADINGS } from '../text/block-headings.js';

const LEDGER_SENTENCES: ReadonlySet<string> = new Set(
  [
    ...Object.values(SECTION_HEADINGS.base),
    ...Object.values(SECTION_HEADINGS.since),
    GAPS_HEADING,
    // The recall hint's last sentence, on its own (a sentence splitter cuts the hint in two).
    RECALL_HINT.slice(RECALL_HINT.lastIndexOf('. ') + 2),
  ].map(fold),
);

/** Patterns of the block's generated lines (record lines, checkpoint lines, the recall hint). */
const LEDGER_LINES: readonly RegExp[] = [
  /^to get an original back verbatim, recall it by handle\b/,
  /^(?:earlier turns \(seq \d+-\d+\) were|history from before this ledger began was) compacted into record\b/,
  /^\d+ more handles are in checkpoint \S+/,
  /^- and \d+ earlier gaps \(list them with the gaps tool\)/,
];

function fold(text: string): string {
  return text.replace(/\s+/g, ' ').trim().toLowerCase();
}

/** Whether `sentence` is a line of the ledger block's own text. */
export function isLedgerText(sentence: string): boolean {
  const folded = fold(sentence);
  return LEDGER_SENTENCES.has(folded) || LEDGER_LINES.some((pattern) => pattern.test(folded));
}
