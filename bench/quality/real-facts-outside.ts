/**
 * Facts labelled by hand in real Claude Code sessions that are NOT in the shared data folder: the `entire/` sessions
 * that `scripts/outside-sessions.mjs` writes from the entireio/cli repository's checkpoint branches (sessions whose id
 * the shared data set does not hold). They re-check `quality-facts-real` on work nothing was tuned on: run it with
 * `--data` set to that script's `--out` folder. Same form and rules as `real-facts.ts` (label words and value verbatim
 * from the line, `need` a later line where the agent acts on the fact); labelled after the replay code was written,
 * never used to choose a constant.
 */
import { amount, rule, sibling, update, value } from './real-facts.js';
import type { RealLabel } from './real-facts.js';

const O3F = 'entire/entireio-cli__3f_603dd13c2c_0_full.jsonl';
const O86 = 'entire/entireio-cli__86_9d11344fce_1_full.jsonl';
const O98 = 'entire/entireio-cli__98_78b713483d_0_full.jsonl';
const OED = 'entire/entireio-cli__ed_51f6581660_0_full.jsonl';
const O13 = 'entire/entireio-cli__13_340918e71b_0_full.jsonl';

/** The labels, by session. */
export const OUTSIDE_LABELS: readonly RealLabel[] = [
  // 3f: the commit-message comment that names the session's prompt.
  rule(O3F, 98, 'swap "# Prompt.." and "# Remove.."', 'the Remove comment line comes before the Prompt line', 180),
  rule(O3F, 170, 'in both places', 'both the interactive prompt and the editor comment get the new prefix', 179),
  update(
    O3F,
    { line: 156, value: 'getFirstPrompt' },
    157,
    ['retrieves the most recent user prompt'],
    'getLastPrompt',
    179,
  ),
  // 86: the CLI version written into checkpoint and session metadata.
  value(O86, 5, ['New file'], 'cmd/entire/cli/buildinfo/buildinfo.go', 63),
  value(O86, 5, ['CLIVersion string'], 'cli_version,omitempty', 124),
  value(
    O86,
    311,
    ['File created successfully at'],
    '/Users/gtrrz-victor/wks/test-cli/cli/cmd/entire/cli/integration_test/cli_version_metadata_test.go',
    340,
  ),
  value(O86, 313, ['-run'], 'TestCLIVersionInMetadata', 346),
  rule(
    O86,
    329,
    'the same as used while compiling the binary',
    'the test compares cli_version with the version the binary was built with',
    343,
  ),
  // 98: review of a cleanup PR, then fixes of its findings.
  sibling(O98, 'hash-sites', 198, ['getShadowBranchNameForCommit()'], 'strategy/manual_commit_session.go:236', 214),
  sibling(O98, 'hash-sites', 198, ['ShadowBranchNameForCommit()'], 'checkpoint/temporary.go:447', 210),
  value(O98, 92, ['7-char short hashes'], 'auto_commit.go:963', 250),
  value(O98, 92, ['Multiple Repository Opens'], 'OpenRepository()', 315),
  amount(O98, 181, ['sessionGracePeriod'], '10 * time.Minute', 312),
  // ed: Gemini transcript parsing, a draft PR, and a second PR that overlaps it.
  value(OED, 5, ['File'], 'cmd/entire/cli/agent/geminicli/transcript.go', 82),
  rule(OED, 223, 'open a draft PR', 'the pull request is opened as a draft', 353),
  sibling(OED, 'prs', 378, ['our PR'], '#342', 413),
  sibling(OED, 'prs', 378, ["Stefan's PR"], '#343', 427),
  // 13: token usage of Claude Code transcripts and subagents.
  value(O13, 104, ['agent transcript is stored in'], 'subagents/', 143),
  value(O13, 157, ['main transcript'], 'full.jsonl', 242),
  rule(
    O13,
    368,
    'clear this is claude code specific',
    'token accounting is specific to Claude Code and must read as such',
    497,
  ),
  rule(O13, 501, 'without doing any changes', 'only look: change nothing', 508),
];
