/**
 * The ranking weights of the SessionStart(compact) context, per agent: Claude Code's ({@link HOOK_RANK_WEIGHTS}) and
 * Codex's ({@link CODEX_HOOK_RANK_WEIGHTS}), and the bonus for a name the agent's summary shares.
 */
import { DEFAULT_RANK_WEIGHTS } from '../../ranking/rank-weights.js';
import type { RankWeights } from '../../ranking/rank-weights.js';

/**
 * Ranking weights of the injected context: the library's defaults with
 * - recency weighing four times as much (12): right after the agent's own compaction the next
 *   turns continue its latest work (what the summary calls the current task), while a ledger
 *   compaction ranks an older region of a window whose recent turns stay visible;
 * - mentions twice as much (3 per doubling): with no recent turns left in view, repetition across
 *   the whole session is the other sign of what the agent comes back to;
 * - identifiers 0.8 and paths 0 by kind: a path the agent needs again is one it edited or ran
 *   (`changed`, `commandRun`), while a path it only read costs 10–30 tokens of the budget;
 * - `specified` scaled with recency (8 = 4 × 2): a task spec fetched long before the compaction
 *   (its recency is low) is still what the current task is about.
 * `specified` was set by that rule, not fitted: only 258c7280 holds such a spec (0.76 → 0.79 there, 4d5611e5 and
 * the SWE-agent halves within ±0.008). A spec's names are not penalised as a dump's either (`dumpOnly`, in
 * `rankHandles`): the spec's file list then fits the budget (258c7280 0.79 → 0.84, the held-out SWE-agent half −0.003).
 * Chosen on session 258c7280 and the even SWE-agent trajectories; 4d5611e5 and the odd ones were
 * held out (`npm run bench hook-context` reports every part).
 * - dates −8 by kind (ranked below everything else): a timestamp read in a log or an API answer is not what the agent
 *   types next; of the 1,513 date candidates at the 18 compactions of `hook-context-entire` none held a
 *   future-needed handle, while the ones shown took 2–6% of the 10,000 characters.
 * - `standardName` 0 (the library's −1.5 left out): after its compaction the agent goes back to the code it was
 *   reading and writes it again, and the names of a language's standard library (`os.ReadFile`, `time.Time`,
 *   `strings.TrimSpace`) are what that code calls. Among the candidates ranked 150–800 at the 18 compactions of
 *   `hook-context-entire` (the ones the 10,000 characters cut or barely kept), a standard name held a future-needed
 *   handle no better-ranked candidate held 6.6 times per 1,000 characters, the others 1.3. Without the penalty: entire/
 *   Claude Code 0.8726 → 0.8769 (held out 0.863 → 0.8688), Codex 0.6684 → 0.6736, claude-code/ 0.8655 → 0.8690; on
 *   the sessions outside the data (never tuned on) Claude Code 0.8414 → 0.8446, Codex 0.4954 either way; quality-facts and
 *   quality-facts-real unchanged.
 */
export const HOOK_RANK_WEIGHTS: RankWeights = {
  ...DEFAULT_RANK_WEIGHTS,
  recency: 12,
  mentions: 3,
  specified: 8,
  standardName: 0,
  kind: { ...DEFAULT_RANK_WEIGHTS.kind, identifier: 0.8, path: 0, date: -8 },
};

/**
 * Score added to a candidate that shares a telling name part with the agent's summary (`hook-context-summary.ts`):
 * two thirds of what a doubling of mentions adds at the hook's weights. On `npm run bench hook-context-entire` (the
 * 13 Claude Code sessions of `entire/`) 0 → 2 moved the pooled share from 0.859 to 0.866 (the held-out half 0.863 →
 * 0.866); the older `claude-code/` pair stayed at 0.879 (0.866 → 0.862 at 2,000 tokens) and the SWE-agent check within
 * ±0.007; 3 was no better. A bonus for the reads of the files the summary names was tried too and left out: it took
 * 0.028 off the older pair at 2,000 tokens.
 */
export const HOOK_SUMMARY_NAMED = 2;

/**
 * Ranking weights of the context injected after a Codex compaction: Claude Code's ({@link HOOK_RANK_WEIGHTS}) with
 * repetition weighing more against recency (mentions 4.5 per doubling, recency 10) and a longer handle costing more
 * (`cost` −1 per doubling of its tokens, −0.6 by default). A Codex compaction keeps no summary to say what the current
 * task is (it keeps the person's messages), and its rollouts hold two to three times the candidates of a Claude Code
 * session at a compaction (1,900–3,500 against 600–1,800 on `entire/`): the latest turns single out less of what
 * comes back, how often the agent came back to a name more, and a short name buys more of the 10,000 characters.
 * Chosen on the tuned Codex rollout of `npm run bench hook-context-entire` (its 2 compactions): 0.591 → 0.673, the
 * held-out rollout 0.615 → 0.627 (all Codex 0.601 → 0.653). In a replay of the ranking over the candidates, around it
 * (recency 8–10, mentions 4.5–6, cost −0.6 to −2) the tuned rollout stayed within 0.66–0.68. The same weights for Claude
 * Code lost on its tuned half in that replay (0.878 → 0.847), so Claude Code keeps its weights.
 */
export const CODEX_HOOK_RANK_WEIGHTS: RankWeights = { ...HOOK_RANK_WEIGHTS, recency: 10, mentions: 4.5, cost: -1 };

/** The ranking weights of the context injected after a compaction by the agent `summarizer` names (`codex`, else Claude Code). */
export function hookRankWeights(summarizer: string): RankWeights {
  return summarizer === 'codex' ? CODEX_HOOK_RANK_WEIGHTS : HOOK_RANK_WEIGHTS;
}
