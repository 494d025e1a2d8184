/**
 * Facts labelled by hand in real sessions of the shared data folder (`entire/`: Claude Code sessions of developers
 * working on a Go CLI, each with Claude Code's own compaction; one `claude-code/` session), for `quality-facts-real`.
 * Each label names the file (relative to the data folder), the 1-based JSONL line that states the fact, the label
 * words a reader must see next to the value (verbatim from that line), the value (a few characters to a few words),
 * and `need`: a later line where the agent needs it (the window is read just before that line). Rules keep only a
 * short distinctive phrase of what the user said (`value`) and our own paraphrase (`gist`); updates keep the old value
 * and its line, and the line of the change (`line`). `real-facts-load.ts` checks every label against its file before
 * anything is measured.
 */

/** What kind of fact a label is. */
export type RealFactKind = 'value' | 'amount' | 'sibling' | 'update' | 'rule';

/** One hand label. */
export interface RealLabel {
  /** Path of the session file relative to the data folder. */
  readonly file: string;
  readonly kind: RealFactKind;
  /** Line stating the fact (for an update: the line where the value changes). */
  readonly line: number;
  /** Label words, verbatim from `line` (any one next to the value binds it); none for a rule. */
  readonly labels: readonly string[];
  /** The value (for an update: the new value; for a rule: a short verbatim phrase of it). */
  readonly value: string;
  /** A later line where the agent needs the fact. */
  readonly need: number;
  /** Sibling pairs: the id both facts of the pair share. */
  readonly pair?: string | undefined;
  /** Updates: the old value and the line stating it. */
  readonly old?: { readonly line: number; readonly value: string } | undefined;
  /** Rules: what the rule says, in our own words. */
  readonly gist?: string | undefined;
  /** Rules: said by the user (default) or read in tool output (a spec, an issue): then shown only as quoted text. */
  readonly source?: 'user' | 'tool' | undefined;
}

const C0 = 'entire/entireio-cli__c0_8972f3adb1_0_full.jsonl';
const B0 = 'entire/entireio-cli__b0_dc55b3a1dc_1_full.jsonl';
const S38 = 'entire/entireio-cli__38_346dbfe2e0_0_full.jsonl';
const S6D = 'entire/entireio-cli__6d_9f76bd01e9_0_full.jsonl';
const S76 = 'entire/entireio-cli__76_9ddf2969b6_1_full.jsonl';
const S89 = 'entire/entireio-cli__89_7eb280e769_12_full.jsonl';
const D0 = 'entire/entireio-cli__d0_161e0df1cb_0_full.jsonl';
const S63 = 'entire/entireio-cli__63_bd3f9b02f2_0_full.jsonl';
const S0F = 'entire/entireio-cli__0f_c364a22bea_0_full.jsonl';
const S91 = 'entire/entireio-cli__91_b42542f24f_0_full.jsonl';
const CC4D = 'claude-code/4d5611e5-241a-462a-8d15-5122611a9569.jsonl';

export const value = (file: string, line: number, labels: string[], text: string, need: number): RealLabel => ({
  file,
  kind: 'value',
  line,
  labels,
  value: text,
  need,
});
export const amount = (file: string, line: number, labels: string[], text: string, need: number): RealLabel => ({
  ...value(file, line, labels, text, need),
  kind: 'amount',
});
export const sibling = (
  file: string,
  pair: string,
  line: number,
  labels: string[],
  text: string,
  need: number,
): RealLabel => ({
  ...value(file, line, labels, text, need),
  kind: 'sibling',
  pair,
});
export const update = (
  file: string,
  old: { line: number; value: string },
  line: number,
  labels: string[],
  text: string,
  need: number,
): RealLabel => ({ ...value(file, line, labels, text, need), kind: 'update', old });
export const rule = (file: string, line: number, phrase: string, gist: string, need: number): RealLabel => ({
  file,
  kind: 'rule',
  line,
  labels: [],
  value: phrase,
  need,
  gist,
});

/** The labels, by session. */
export const REAL_LABELS: readonly RealLabel[] = [
  // c0: `entire list` of branches and sessions; checkpoints renamed to steps.
  amount(C0, 12, ['entire/sessions'], '50 commits', 307),
  value(C0, 237, ['checkpoints'], '2026-01-06-c93f3533', 307),
  amount(C0, 312, ['commits'], '20', 322),
  update(C0, { line: 394, value: 'checkpoints_count' }, 402, ['write'], 'steps_count', 612),
  rule(C0, 402, 'keep backwards compatibility', 'keep reading the old count key while writing the new one', 612),
  rule(C0, 402, 'use "steps" in the user facing messaging', 'user-facing text says steps, not checkpoints', 530),
  rule(C0, 596, 'this should still be Checkpoints', 'the commit trailer keeps the checkpoint name', 612),
  // b0: e2e tests review; short-line filtering for content overlap.
  rule(B0, 52, 'specifically be told to run the e2e tests', 'e2e tests cost tokens: run them only when asked', 646),
  amount(B0, 259, ['threshold'], '10-character', 672),
  value(B0, 192, ['Checkpoint ID'], '66259f1a9213', 233),
  value(B0, 192, ['Content hash'], '66/259f1a9213/0/content_hash.txt', 233),
  value(B0, 452, ['Medium Severity'], 'cmd/entire/cli/strategy/content_overlap.go', 475),
  value(B0, 475, ['shadow branch'], 'entire/ca151eb-e3b0c4', 646),
  sibling(B0, 'checkpoint-ids', 475, ['First checkpoint ID'], '79cb4fead325', 481),
  sibling(B0, 'checkpoint-ids', 475, ['Second commit'], '7940d5559a34', 481),
  value(B0, 475, ['FAIL'], 'TestShadow_RevertedFiles_ManualEditNoCheckpoint', 496),
  rule(B0, 362, "let's do length only", 'filter trivial lines by their length alone', 672),
  amount(B0, 334, ['alphanumeric'], '5 chars', 362),
  value(B0, 4, ['e2e integration tests'], 'cmd/entire/cli/e2e_test', 646),
  // 38: shadow branch conflict between worktrees.
  value(S38, 9, ['Branch'], 'entire/314004c', 92),
  value(S38, 9, ['From worktree'], '/Users/alex/workspace/cli/.worktrees/test-123', 130),
  value(S38, 9, ['Existing session'], '8d1b0b56-370e-47c4-b992-58ef6f0c4c50', 64),
  rule(S38, 474, 'commit in a broken state', 'do not commit while the code is broken', 894),
  // 6d: AI summaries for `entire explain`.
  update(S6D, { line: 6, value: 'MCP-108' }, 15, ['linear'], 'ENT-108', 97),
  sibling(S6D, 'branches', 449, ['On branch'], 'alex/ent-108-add-ai-summaries', 1024),
  value(S6D, 701, ['explain -c'], 'c1c35c964733', 803),
  sibling(S6D, 'branches', 954, ['update this branch from'], 'alex/ent-109-text-output-checkpoint-flag', 1024),
  value(S6D, 839, ['linear issue'], 'Project:Troy', 851),
  rule(S6D, 451, 'stick to the workflow of subagent dev and review', 'keep using subagents to develop and review', 954),
  value(S6D, 59, ['add it to'], 'metadata.json', 97),
  rule(S6D, 66, "let's go json", 'store the generated summary as JSON', 97),
  value(S6D, 73, ['line number refs'], 'CodeLearning', 97),
  // 76: per-session agent when restoring logs.
  rule(S76, 425, 'Do not fallback', 'no fallback agent: warn that the session cannot be restored', 941),
  // the label names the whole path: its hash folder and file name are parts of it, not values of their own
  value(
    S76,
    731,
    ['latest gemini session path', 'gemini session path'],
    'tmp/c21e88c2222c11176465156df273ed8854ee1b358c89bc253f4fd08666c70d82/chats/session-2026-02-10T23-57-9f5659bb.json',
    929,
  ),
  rule(S76, 582, 'log that sessions that are skipped', 'skipped sessions are logged', 941),
  value(S76, 6, ['New struct'], 'strategy/manual_commit_rewind.go', 415),
  value(S76, 6, ['LogsOnlyRestorer'], 'line 473-478', 736),
  rule(S76, 731, 'only for gemini sessions', 'change the restore path for Gemini sessions only', 929),
  // 89: stable session ids across days; package moves.
  sibling(S89, 'same-session', 88, ['same claude session'], '2026-01-23-a6c3cac2-2f45-43aa-8c69-419f66a3b5e1', 277),
  sibling(S89, 'same-session', 88, ['same claude session'], '2026-01-22-a6c3cac2-2f45-43aa-8c69-419f66a3b5e1', 277),
  value(S89, 1109, ['failing'], 'mise run build', 1130),
  value(S89, 1135, ['checke'], 'mise run test:ci', 1183),
  rule(S89, 643, 'moved to sessions too', 'session ids belong in the sessions package', 748),
  value(S89, 282, ['stable session ID'], 'GetOrCreateEntireSessionID', 623),
  rule(S89, 150, 'only if there is an easy fix', 'handle the several-days edge case only if easy', 161),
  // d0: broken git status, gc and worktrees.
  value(D0, 270, ['bad tree object'], '082c2c4495629bd585a0a11807b4e0ede9a99753', 315),
  value(D0, 660, ['unable to read'], 'e53647ba1f1e5203bedff558b482f178db045555', 870),
  update(D0, { line: 253, value: 'entire/sessions' }, 253, ['migration'], 'entire/checkpoints/v1', 875),
  rule(D0, 221, "no don't set it", 'leave the gc setting alone and watch whether it recurs', 414),
  value(D0, 202, ['document it in'], 'known_limitations', 884),
  value(D0, 192, ['linear improvement'], 'Project:Troy', 884),
  value(D0, 695, ['this recent error is from'], 'worktree 2', 716),
  rule(D0, 695, 'not jump to cross-worktree explanations', 'do not assume a cause across worktrees yet', 734),
  value(D0, 414, ['to resolve'], 'git read-tree HEAD', 875),
  update(D0, { line: 640, value: '48f554e4' }, 640, ['md5'], 'bfb70aa9', 870),
  // 63: the session phase state machine plan.
  value(S63, 5, ['the plan in'], 'docs/plans/2026-02-06-session-phase-state-machine.md', 415),
  value(S63, 331, ['linear issue'], 'Project:Troy', 681),
  rule(S63, 681, 'match the existing test style', 'new tests follow the style of the existing ones', 796),
  value(S63, 434, ['write to a file in'], 'docs/plans', 443),
  sibling(S63, 'terms', 245, ['checkpoint =='], 'entire/checkpoints/v1', 415),
  sibling(S63, 'terms', 245, ['step =='], 'rewindable points', 415),
  rule(S63, 278, 'defer locking for now', 'no file locking until the storage migration', 415),
  rule(S63, 496, 'update this branch to origin/main', 'bring the branch up to date before the first PR', 508),
  value(S63, 508, ['use'], 'executing-plans', 666),
  // 0f: wingman status notifications.
  value(S0F, 4, ['lock file'], '.entire/wingman.lock', 759),
  value(S0F, 4, ['skip'], 'ENTIRE_WINGMAN_APPLY', 759),
  amount(S0F, 443, ['ireturn'], '5 issues', 471),
  sibling(S0F, 'return-paths', 4, ['no-changes early return path'], '297', 21),
  sibling(S0F, 'return-paths', 4, ['normal return path'], '448', 21),
  // 91: a JSON tag renamed in a small PR, then merged with its parent branch.
  update(S91, { line: 20, value: 'last_interaction_at' }, 78, ['JSON tag'], 'last_interaction_time', 287),
  value(S91, 230, ['merge with parent'], 'alex/ent-221-better-state-tracking-for-sessions', 279),
  // claude-code 4d56: a tracker epic read by a tool (spotter-dov); its spec lines are the facts.
  sibling(CC4D, 'tool-result-lines', 18, ['silently truncated'], '5 lines', 1025),
  sibling(CC4D, 'tool-result-lines', 18, ['by default'], '10 lines', 1025),
  {
    ...rule(CC4D, 18, 'no silent truncation', 'tool results are never cut without an expand control', 1115),
    source: 'tool',
  },
  value(CC4D, 25, ['Extract shared transcript presentation'], 'spotter-dov.1', 518),
  value(CC4D, 18, ['control'], 'Show N more lines', 1495),
  value(CC4D, 18, ['opening'], '/sessions/:session_id/agents/:agent_id', 1025),
  value(CC4D, 18, ['transcript data model'], 'AshComputer.LiveView', 44),
];
