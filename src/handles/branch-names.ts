/**
 * Git branch names the text calls branches: `On branch mira/kap-342-queue-retries`, "the shadow branch
 * `orbit/7d2f9a1-b4c8e2`", "Created shadow branch 'orbit/7d2f9a1-b4c8e2'", `git checkout -b fix-login/step-2`, "merge with
 * parent mira/kap-118-lease-renewal". A name with a `/` and no conventional prefix
 * (`feature/`, `release/`, `origin/` are identifiers anyway, see identifiers.ts) cannot be told from a path or from
 * prose (`before/after`) on its own shape; the word `branch` (or a branch-creating flag, or `merge`/`rebase` with a
 * preposition) before it says what it is. The name may be quoted as git prints it (`'…'`, `"…"`) or as inline code.
 * Each is a value (`identifier`) and, bound to the word, an `assignment` (`branch mira/kap-342-…`), so the index
 * shows it as a branch.
 */
import type { Candidate } from './candidate.js';

/**
 * `branch NAME`, `branch: NAME`, `branch is NAME`, `branch 'NAME'`, `branch `NAME``, `checkout -b NAME`, `switch -c
 * NAME`, `merge with parent NAME`, `rebase onto NAME` (a bare `merge NAME` is mostly a command line or a commit title).
 */
const BRANCH = new RegExp(
  String.raw`\b(?:branch(?:es)?(?:\s+(?:is|named|called|to))?[\s:]+|(?:checkout|switch)\s+-[bcBC]\s+|` +
    String.raw`(?:merge|rebase)\s+(?:with|into|onto|from)\s+(?:(?:the\s+)?(?:parent|base|upstream)(?:\s+branch)?\s+)?)` +
    String.raw`([\`'"]?)([A-Za-z0-9][\w.-]*(?:\/[\w.-]*[\w-])+)\1(?![\w/-]|\.\w)`,
  'gi',
);
/**
 * The words {@link BRANCH} opens with (`branch`, `checkout`, `switch`, `merge`, `rebase`), in any case: a text without
 * one holds no branch name, and {@link BRANCH} (a long alternation, costly to compile in a hook process) is neither
 * run nor compiled for it.
 */
const BRANCH_WORDS = /branch|checkout|switch|merge|rebase/i;

/** Whether `view` holds a word {@link BRANCH} opens with: without one it holds no branch name. */
export function mayNameBranch(view: string): boolean {
  return BRANCH_WORDS.test(view);
}
/** A last segment with a file extension names a file, not a branch (`branch src/app.ts` is prose about a file). */
const FILE_NAME = /\.[A-Za-z]{1,5}$/;

/** A branch name the text calls a branch: the name (`identifier`) and the text from the word to its end. */
export interface BranchName {
  readonly name: Candidate;
  readonly binding: Candidate;
}

/** Every branch name the text calls a branch (see the module comment). */
export function findBranchNames(view: string): BranchName[] {
  const found: BranchName[] = [];
  if (!mayNameBranch(view)) return found;
  BRANCH.lastIndex = 0;
  for (let match = BRANCH.exec(view); match !== null; match = BRANCH.exec(view)) {
    const name = match[2] ?? '';
    if (FILE_NAME.test(name) || /^\d+(?:\/\d+)+$/.test(name)) continue;
    const quote = match[1] ?? '';
    const end = match.index + match[0].length;
    const start = end - quote.length - name.length;
    found.push({
      name: { kind: 'identifier', start, end: start + name.length },
      binding: { kind: 'assignment', start: match.index, end },
    });
  }
  return found;
}
