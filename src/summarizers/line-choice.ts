/**
 * The budgeted choice of the extractive summary's lines: each section takes its candidates, best first, while they fit
 * its share of the budget and the budget; a line that repeats one already chosen (most of its words), or states a
 * binding a later one replaced, is not taken; a section may cap its lines that carry nothing new (see `decision-lines.ts`).
 */
import { SECTION_TITLES } from './sections.js';
import type { SectionName } from './sections.js';
import type { Candidate } from './task-lines.js';
import { overlapsOver } from './word-overlap.js';

/** A cap on a section's lines that carry nothing the summary's other lines do not (`quiet` given what is shown). */
export interface QuietCap {
  readonly quiet: (candidate: Candidate, shown: string) => boolean;
  readonly max: number;
}

/** What the choice reads each line by, computed once per summary. */
export interface LineMeasures {
  readonly tokensOf: (text: string) => number;
  readonly wordSetOf: (text: string) => ReadonlySet<string>;
  /** Texts of bindings a later statement replaced: a line stating one is not the current state. */
  readonly replaced: readonly string[];
}

/** The lines chosen so far, by section, and the budget they spent. */
export class LineChoice {
  /** Chosen lines by section, in the order the sections first took a line. */
  readonly chosen = new Map<SectionName, Candidate[]>();
  private readonly seen: ReadonlySet<string>[] = [];
  private readonly used = new Set<string>();
  private readonly quietTaken = new Map<SectionName, number>();
  private spent = 0;
  /** The chosen lines' texts, one a line. */
  private shown = '';

  constructor(
    private readonly budget: number,
    private readonly measures: LineMeasures,
  ) {}

  /**
   * Take `candidates` of `section`, in order, while each fits `share` of the budget for the section and the budget
   * left; Files and Errors lines are never dropped as repeats (a path or an error line is its own value). With a
   * `cap`, a line that carries nothing new waits until every other candidate had its turn, and `cap.max` such lines
   * at most are taken (over all passes): a line naming something new is never left out for one that names nothing.
   */
  take(section: SectionName, candidates: readonly Candidate[], share: number, cap?: QuietCap): void {
    const { tokensOf, wordSetOf, replaced } = this.measures;
    const members = this.chosen.get(section) ?? [];
    let cost = members.length === 0 ? tokensOf(SECTION_TITLES[section]) + 2 : 0;
    let sectionSpent = members.reduce((sum, candidate) => sum + tokensOf(candidate.text) + 2, 0);
    const limit = Math.floor(this.budget * share);
    const repeats = section !== 'files' && section !== 'errors';
    /**
     * Takes the candidate when it fits and repeats nothing taken; whether it did. Each test is a pure function of the
     * candidate and what was taken, so the cheap one (does it fit?) runs before the searches through the replaced
     * bindings and the lines taken: once a section is full, its remaining candidates cost a memoized count each.
     */
    const tryTake = (candidate: Candidate): boolean => {
      if (this.used.has(candidate.text)) return false;
      const lineCost = tokensOf(candidate.text) + 2;
      if (sectionSpent + cost + lineCost > limit || this.spent + cost + lineCost > this.budget) return false;
      if (replaced.some((text) => candidate.text.includes(text))) return false;
      const candidateWords = wordSetOf(candidate.text);
      if (repeats && this.seen.some((other) => overlapsOver(candidateWords, other, 0.6))) return false;
      members.push(candidate);
      this.seen.push(candidateWords);
      this.used.add(candidate.text);
      this.shown += `${candidate.text}\n`;
      cost += lineCost;
      sectionSpent += lineCost;
      return true;
    };
    const waiting: Candidate[] = [];
    for (const candidate of candidates) {
      if (cap !== undefined && !this.used.has(candidate.text) && cap.quiet(candidate, this.shown))
        waiting.push(candidate);
      else tryTake(candidate);
    }
    for (const candidate of waiting) {
      const taken = this.quietTaken.get(section) ?? 0;
      if (cap === undefined || taken >= cap.max) break;
      if (tryTake(candidate)) this.quietTaken.set(section, taken + 1);
    }
    if (members.length === 0) return;
    this.chosen.set(section, members);
    this.spent += cost;
  }
}
