import { InvalidConfigError } from '../errors.js';
import type { HandleKind } from '../types.js';

/**
 * Weights of the handle ranking: a handle's score is the sum of each feature times its
 * weight. Hand-set (reasons below) and kept in one plain object so a benchmark can fit or
 * cross-validate them (`rankHandles(handles, evidence, { ...DEFAULT_RANK_WEIGHTS, … })`).
 */
export interface RankWeights {
  /** Per doubling of the spans that mention the handle (log2(1 + spans)). */
  readonly mentions: number;
  /** Times recency in (0, 1]: 1 for a mention in the last span of the region, halving every `recencyHalfLifeSeqs` before it. */
  readonly recency: number;
  /** Seqs over which recency halves. */
  readonly recencyHalfLifeSeqs: number;
  /** The agent used it: it is in the agent's own text or a tool call's arguments. */
  readonly agentUsed: number;
  /** On top of `agentUsed`: it is in a tool call's arguments (the agent acted on it). */
  readonly toolCall: number;
  /** The user (or the system prompt) said it. */
  readonly userSaid: number;
  /** It names something the session changed: a file an edit/write tool call or a shell write (`sed -i`, `>`) targeted. */
  readonly changed: number;
  /** It is part of a shell command the agent ran. */
  readonly commandRun: number;
  /**
   * It is in a tool result that also states requirements (two or more quoted constraints: "must not", "do not"): a
   * task description or a spec the agent fetched, whose names are what the work will touch. (What the user said
   * weighs as `userSaid` already.)
   */
  readonly specified: number;
  /** The previous record kept it in the window (it earned its place before). */
  readonly carried: number;
  /** Penalty (negative): every mention is inside tool results. */
  readonly toolOnly: number;
  /**
   * Penalty (negative), on top of `toolOnly`: every mention is inside a bulky tool result (a file dump, a long log). A
   * spec (`specified`) is bulky because it lists what the work must do, so its names are not penalised as a dump's.
   */
  readonly dumpOnly: number;
  /** Penalty (negative): it stays visible verbatim in the window anyway (a recent user, assistant or tool-call turn). */
  readonly visibleInWindow: number;
  /** Penalty (negative): it looks like extraction noise (a lone closing tag `/div`, a 1–2 character text). */
  readonly noise: number;
  /** Penalty (negative), on top of `noise`: markup (an HTML attribute, a CSS colour or style value). */
  readonly markup: number;
  /** Penalty (negative): one of many tool-output handles that differ only in numbers or ids, a listing's row. */
  readonly listingRow: number;
  /** Penalty (negative): a name every program in its language uses (`fmt.Errorf`, `t.Fatalf`, `/dev/null`). */
  readonly standardName: number;
  /** Penalty per doubling of its token cost: of two handles equally likely to be needed, the cheaper leaves room for another. */
  readonly cost: number;
  /** A tool result of at least this many tokens (or a chunk of a larger one) is bulky. */
  readonly bulkyResultTokens: number;
  /** Per kind: how often a handle of this kind is what an agent needs verbatim later. */
  readonly kind: Readonly<Record<HandleKind, number>>;
}

/**
 * Hand-set weights. Reasons:
 * - `userSaid` 3 and `changed` 3 are the strongest single signals: what the user asked for and
 *   the files the session edited are what an agent comes back to (issue 11: a path edited five
 *   times must beat a symbol seen once in a file dump).
 * - `agentUsed` 2 + `toolCall` 1: the agent's own use predicts its reuse better than anything
 *   it merely read; a tool-call argument is a deliberate act, so it weighs a little more.
 * - `mentions` 1.5 per doubling: repetition is evidence, with diminishing returns (a handle in 15
 *   spans is not 15 times as likely to be needed as one in a single span).
 * - `recency` 3, halving every 60 seqs (a few dozen tool calls): the latest work is what the next
 *   turns continue; an old handle needs repeated use or the user's words to outrank it.
 * - `carried` 1: a handle an earlier compaction kept has survived a ranking already, but it must
 *   not lock the window against newer evidence.
 * - `toolOnly` −1, `dumpOnly` −1: a symbol only seen inside a file dump or a long log is the
 *   commonest false candidate.
 * - `visibleInWindow` −4: a handle still shown verbatim in recent turns needs no index line until
 *   those turns are compacted too, when it is ranked again with them.
 * - `noise` −4 (an assignment with no value, `style=\\`, is noise too), `cost` −0.6 per doubling of
 *   tokens: of two equally likely handles the shorter leaves room for another.
 * - `markup` −4 more for markup seen only in tool output (an attribute, a colour, a style value): with room to spare
 *   (32,000 tokens) it would otherwise fill the index's tail (quality-facts --quick at 32,000, throw-away entries: 0.129
 *   without it, 0.057 with it; markup the agent wrote itself keeps `noise` alone, which quality-claude-code needs).
 * - `listingRow` −1, and a row's mentions and recency count for nothing (`scoreHandle`): `test_case_12`, `timeout=3`,
 *   `Nov 4` in the fiftieth test run or log were printed often and lately, which says nothing about which row is
 *   needed; counted, they filled the index at 4,000 tokens and pushed out the session's settings (issue 36). A timing a
 *   tool printed (`13.633s`, `7564ms`) is such a row too (`looksLikeTiming`).
 * - `standardName` −1.5: `fmt.Errorf`, `t.Fatalf`, `os.Stderr`, `path/filepath`, `/dev/null` were the longest lines of
 *   the index on real Go sessions (entire/ at 8,000 tokens) though the agent writes them from the language, not the
 *   index. −1.5 rather than more: the agent does write them again, so the string yardstick of hook-context-entire counts
 *   them (Claude Code 0.868 without the penalty, 0.864 at −1.5, 0.861 at −3). The SessionStart context no longer uses
 *   it (`HOOK_RANK_WEIGHTS.standardName` 0, hook-context-weights.ts): once the facts it once protected were bound in
 *   other ways, the hook arm of quality-facts-real was the same without it, and the hook's own yardstick higher.
 * - kinds: paths, assignments, error lines and quoted constraints name concrete things;
 *   identifiers are many and often incidental; bare numbers and dates are rarely reused alone.
 */
export const DEFAULT_RANK_WEIGHTS: RankWeights = {
  mentions: 1.5,
  recency: 3,
  recencyHalfLifeSeqs: 60,
  agentUsed: 2,
  toolCall: 1,
  userSaid: 3,
  changed: 3,
  commandRun: 0.5,
  specified: 2,
  carried: 1,
  toolOnly: -1,
  dumpOnly: -1,
  visibleInWindow: -4,
  noise: -4,
  markup: -4,
  listingRow: -1,
  standardName: -1.5,
  cost: -0.6,
  bulkyResultTokens: 300,
  kind: {
    constraint: 1,
    path: 1,
    url: 0.6,
    endpoint: 0.6,
    identifier: 0.2,
    version: 0.3,
    assignment: 0.8,
    number: -0.8,
    email: 0.3,
    date: -0.5,
    error: 0.8,
  },
};

/** Ranking weights as a caller gives them: any field left out keeps its default; `kind` is merged per kind. */
export type RankWeightsInput = Partial<Omit<RankWeights, 'kind'>> & {
  readonly kind?: Partial<Record<HandleKind, number>> | undefined;
};

/**
 * Fill in defaults for ranking weights and validate them: every weight a finite number, `recencyHalfLifeSeqs` and
 * `bulkyResultTokens` positive. Throws InvalidConfigError naming each bad field (and the session, when given).
 */
export function resolveRankWeights(input: RankWeightsInput | undefined, sessionId?: string): RankWeights {
  if (input === undefined) return DEFAULT_RANK_WEIGHTS;
  const weights: RankWeights = {
    ...DEFAULT_RANK_WEIGHTS,
    ...input,
    kind: { ...DEFAULT_RANK_WEIGHTS.kind, ...input.kind },
  };
  const problems: string[] = [];
  for (const [name, value] of Object.entries(weights)) {
    if (name === 'kind') continue;
    if (typeof value !== 'number' || !Number.isFinite(value))
      problems.push(`ranking.${name} must be a finite number (got ${String(value)})`);
  }
  for (const [kind, value] of Object.entries(weights.kind)) {
    if (!(kind in DEFAULT_RANK_WEIGHTS.kind)) problems.push(`ranking.kind.${kind} is not a handle kind`);
    else if (typeof value !== 'number' || !Number.isFinite(value))
      problems.push(`ranking.kind.${kind} must be a finite number (got ${String(value)})`);
  }
  for (const name of ['recencyHalfLifeSeqs', 'bulkyResultTokens'] as const)
    if (!(weights[name] > 0)) problems.push(`ranking.${name} must be positive (got ${String(weights[name])})`);
  for (const name of Object.keys(input))
    if (!(name in DEFAULT_RANK_WEIGHTS)) problems.push(`ranking.${name} is not a ranking weight`);
  if (problems.length > 0) {
    const where = sessionId === undefined ? '' : `Session ${sessionId}: `;
    throw new InvalidConfigError(`${where}invalid ranking weights: ${problems.join('; ')}.`, {
      ...(sessionId === undefined ? {} : { sessionId }),
      problems,
    });
  }
  return weights;
}
