/**
 * What a command answered, as opposed to what the agent works with: the SessionStart context ranks it last.
 *
 * A command's output is full of bindings and URLs that are the command's answer, not settings of the work: the rows of
 * `git status` (`modified:   cmd/app/list.go`), a linter's counts (`nilerr: 1`), the fields of an API's JSON
 * (`"assignee": null`, `"avatar_url": "https://avatars…"`), the links a tool prints. The agent gets them back by
 * running the command again, and shown after a compaction they take the room of the names it types next. So a
 * binding (`assignment`) or URL that was only ever seen in a command's output — never in the agent's own text or
 * calls, nor in a subagent's report, nor in what the user or the system said — and never in a tool result that shows
 * one file (`hook-context-sources.ts`: a config or source file the agent read, whose bindings are facts of the
 * project) is ranked after every other candidate: it stays recallable and is shown only when room is left.
 *
 * Before this rule, on `npm run bench hook-context-entire`, the 366 such handles shown at its 18 compactions took
 * 15,300 characters (850 a compaction, of 10,000) and held 2 future-needed handles no other shown handle held. With
 * it: entire/ Claude Code 0.867 → 0.876 (held-out half 0.863 → 0.866), Codex 0.591 → 0.601 (0.602 → 0.615),
 * claude-code/ 0.859 → 0.866. Names only seen in a command's output were tried as answers too and left out: the
 * held-out halves lost (Claude Code 0.863 → 0.851, Codex 0.602 → 0.590). Error lines as answers changed nothing.
 *
 * One kind of name is an answer all the same: the field names of a JSON answer (`subscriptions_url`,
 * `performed_via_github_app`, `node_id` of `curl https://api.github.com/…` or `gh pr view --json`). A name (an
 * `identifier`) seen as the key of a JSON object (`"node_id":`) in a command's output, and never outside a command's
 * output (a jq filter the agent wrote, `.updated_at`, keeps it in place) nor in a file read, is ranked with the answers.
 * On `hook-context-entire` the 105 such names shown at its 18 compactions took 1,450 characters and held 1
 * future-needed handle; with them last: entire/ Codex 0.658 → 0.663 (tuned rollout 0.682 → 0.673, held out
 * 0.627 → 0.651), entire/ Claude Code and claude-code/ unchanged (0.8726, 0.8655); on the sessions outside the data
 * (`scripts/outside-sessions.mjs`: 6 Codex rollouts, 50 Claude Code sessions) Codex 0.4920 → 0.4928 and Claude Code
 * 0.8385 → 0.8400.
 */
import { handleIdentity } from '../../handles/handle-sets.js';
import type { Handle, HandleKind, SourceKind } from '../../types.js';

/** Kinds that a command's answer is made of (paths, error lines and names but a JSON answer's keys keep their rank). */
const ANSWER_KINDS: ReadonlySet<HandleKind> = new Set<HandleKind>(['assignment', 'url']);

/**
 * Tools (lower case) whose result is a report a subagent wrote (Claude Code's `Task`, later `Agent`), not a command's
 * output: what it says counts as said by an agent.
 */
const SUBAGENT_TOOLS: ReadonlySet<string> = new Set(['task', 'agent']);

/** The part of a stored span this module reads. */
export interface OutputSpan {
  readonly kind: SourceKind;
  readonly toolName?: string | undefined;
  /** The span's text (to tell a JSON field name from a name the output uses otherwise); unknown: not a field name. */
  readonly text?: string | undefined;
}

/** A key of a JSON object: a quoted string without escapes, then a colon. */
const JSON_KEY = /"([^"\\\n]{1,200})"\s*:/g;

/** The keys of the JSON objects `text` holds (none when it is unknown; a text with no `":` is not scanned). */
function jsonKeys(text: string | undefined): Set<string> {
  if (text === undefined || !/"\s*:/.test(text)) return new Set();
  return new Set([...text.matchAll(JSON_KEY)].map((match) => match[1] ?? ''));
}

/** Whether `span` is the output of a command (a tool result other than a subagent's report). */
function commandOutput(span: OutputSpan | undefined): boolean {
  return span?.kind === 'tool-result' && !SUBAGENT_TOOLS.has(span.toolName?.toLowerCase() ?? '');
}

/**
 * The candidates that are only a command's answer (see the module comment): of an {@link ANSWER_KINDS} kind or a name
 * that a command's output holds as a JSON key, every occurrence in `occurrences` (one per span holding a handle) inside
 * a `tool-result` span of `spans`, and no file (`fileOf`) they were read from.
 */
export function commandAnswers(
  candidates: readonly Handle[],
  occurrences: readonly Pick<Handle, 'kind' | 'text' | 'spanId'>[],
  spans: ReadonlyMap<string, OutputSpan>,
  fileOf: (handle: Handle) => string | undefined,
): Set<Handle> {
  const saidElsewhere = new Set<string>();
  const fields = new Set<string>();
  // The JSON keys of each command output holding a name, read once per span.
  const keysOf = new Map<string, Set<string>>();
  const keys = (spanId: string, span: OutputSpan | undefined) => {
    const known = keysOf.get(spanId) ?? jsonKeys(span?.text);
    keysOf.set(spanId, known);
    return known;
  };
  for (const occurrence of occurrences) {
    if (!ANSWER_KINDS.has(occurrence.kind) && occurrence.kind !== 'identifier') continue;
    const span = spans.get(occurrence.spanId);
    if (!commandOutput(span)) saidElsewhere.add(handleIdentity(occurrence));
    else if (occurrence.kind === 'identifier' && keys(occurrence.spanId, span).has(occurrence.text))
      fields.add(handleIdentity(occurrence));
  }
  const answers = new Set<Handle>();
  for (const handle of candidates) {
    const identity = handleIdentity(handle);
    if (!ANSWER_KINDS.has(handle.kind) && !fields.has(identity)) continue;
    if (saidElsewhere.has(identity)) continue;
    if (fileOf(handle) === undefined) answers.add(handle);
  }
  return answers;
}
