/**
 * The Task lines of the extractive summary (issue 36, part 5): the user's request in their own words — the asks of
 * the first and of the latest request, before their other sentences; decisions, lead-ins and pinned rules last.
 */
import { decides, isAsk, isDecision } from './sentence-weight.js';

/** A candidate line: a verbatim extract of one unit, with the span ids it cites. */
export interface Candidate {
  readonly order: number;
  readonly text: string;
  readonly spanIds: readonly string[];
  /** The unit it comes from (sentences of one request are grouped by it). */
  readonly unit: number;
}

const SENTENCES_PER_REQUEST = 3;
/** Sentences of a request read for its Task lines (its asks first among them). */
const ASK_WINDOW = 8;

/**
 * How a request's sentence ranks for the Task: its asks, then its other sentences, then a lead-in that only introduces
 * what follows ("Implement the following plan:", after the plan's own title), then its decisions and the rules the
 * ledger pins as constraints (shown there already).
 */
function taskRank(candidate: Candidate, pinned: ReadonlySet<string>): number {
  if (isDecision(candidate.text) || pinned.has(candidate.text)) return 3;
  if (candidate.text.endsWith(':')) return 2;
  return isAsk(candidate.text) ? 0 : 1;
}

/**
 * Up to {@link SENTENCES_PER_REQUEST} sentences of one request, best first (see {@link taskRank}), read among its
 * first {@link ASK_WINDOW}: an order deep in a long paste (a template's "Run the tests") does not displace its opening.
 */
function requestLines(members: readonly Candidate[], pinned: ReadonlySet<string>): Candidate[] {
  return [...members]
    .sort((a, b) => a.order - b.order)
    .slice(0, ASK_WINDOW)
    .sort((a, b) => taskRank(a, pinned) - taskRank(b, pinned) || a.order - b.order)
    .slice(0, SENTENCES_PER_REQUEST);
}

/**
 * Lines of the first and the latest request (grouped by unit), in the order they are taken: the asks of both
 * before their other sentences, so a tight budget keeps what was asked (the summary shows them in the user's
 * order). A request is a user turn with something in it beyond small talk and beyond orders that settle a choice:
 * "Sounds good." is no request, and "Drop the IP-based fallback." is a decision, shown under Decisions; so is a later
 * turn whose asks all settle how ("Make it a soft delete instead of removing the rows.").
 */
export function taskCandidates(task: readonly Candidate[], pinned: ReadonlySet<string> = new Set()): Candidate[] {
  const asks = task.filter((candidate) => !isDecision(candidate.text));
  const opening = asks[0]?.unit;
  // after the opening request, an ask that settles how ("Make it a soft delete instead of removing the rows.") is a
  // decision about the work asked for, shown under Decisions, not a new request
  const requests = [
    ...new Set(
      asks
        .filter((candidate) => candidate.unit === opening || !decides(candidate.text))
        .map((candidate) => candidate.unit),
    ),
  ];
  const first = requests[0] ?? task[0]?.unit;
  const latest = requests[requests.length - 1] ?? first;
  const ofFirst = requestLines(
    task.filter((candidate) => candidate.unit === first),
    pinned,
  );
  const ofLatest =
    latest === first
      ? []
      : requestLines(
          task.filter((candidate) => candidate.unit === latest),
          pinned,
        );
  const lines = [...ofFirst, ...ofLatest];
  return [...lines].sort((a, b) => taskRank(a, pinned) - taskRank(b, pinned) || lines.indexOf(a) - lines.indexOf(b));
}
