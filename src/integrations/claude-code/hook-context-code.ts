/**
 * Bindings that are statements of code, not facts: the SessionStart context leaves them to recall.
 *
 * The assignment detector binds `label: value` and `KEY=value` wherever they are written, and a file the agent read is
 * full of them: `found = true`, `m.cursor = 0`, `ID:      cp.CheckpointID`, `kind: :tool_result`, `wantKeys: []string{}`. Shown
 * after a compaction they read as settings of the session ("found is true") and crowd out the names a reader can use.
 * A binding is code when its value is a literal of a language (`true`, `nil`, `None`, an atom, an empty literal), a
 * format verb, or a member or call expression (`cp.Timestamp`, `ag.Name()`), or when its key is one
 * (`node.Expanded = true`). A quoted key is data, and `KEY=value` written without spaces is a setting, an environment
 * variable, a log field or a shell variable whatever the value: `ACCESSIBLE=1`, `GIT_EDITOR=true`, `phase=%s`,
 * `Phase=ENDED`, `timeout: 30000`, `"review_applied": false` stay.
 */
import type { Handle } from '../../types.js';

/** `key = value`, `key: value`, `KEY=value`, `"key": value`, with the separator and its spaces. */
const BINDING = /^("?)([^"=:\s]+(?:\s[^"=:\s]+)*)"?(\s*(?:=|:)\s*)(.+)$/s;

/** Values that are literals of a language rather than facts. */
const CODE_LITERAL = /^(?:true|false|nil|null|None|True|False|undefined|:[a-z_]\w*|\[\][\w.*]*\{\}|\{\}|\[\]|""|'')$/;

/** A format verb (`%s`, `%d`, `%.2f`, `%q`) as the whole value. */
const FORMAT_VERB = /^%[-+ #0]*\d*(?:\.\d+)?[a-zA-Z]$/;

/** A member or call expression: `cp.Timestamp`, `summary.TokenUsage`, `ag.Name()`, `DateTime.utc_now()`, `line_meta[:kind]`. */
const CODE_EXPRESSION = /^[a-z_]\w*(?:\.[A-Za-z_]\w*)+(?:\(\))?$|^[A-Za-z_][\w.]*\(\)$|^[a-z_]\w*\[[^\]]*\]$/;

/** A key that is a member of a value (`node.Expanded`, `m.cursor`): a statement, not a setting. */
const MEMBER_KEY = /^[a-z_]\w*\.[A-Za-z_]\w*$/;

/** Whether `handle` is a binding whose key or value is code (see the module comment). */
export function isCodeStatement(handle: Pick<Handle, 'kind' | 'text'>): boolean {
  if (handle.kind !== 'assignment') return false;
  const match = BINDING.exec(handle.text.trim());
  if (match === null) return false;
  // A quoted key is a field of data (`"review_applied": false`): a fact of what was read.
  if (match[1] === '"') return false;
  const key = match[2] ?? '';
  const value = (match[4] ?? '').trim().replace(/,$/, '');
  // `KEY=value` written without spaces is the form of settings, environment, log fields and shell variables.
  if (match[3] === '=') return false;
  if (MEMBER_KEY.test(key)) return true;
  return CODE_LITERAL.test(value) || FORMAT_VERB.test(value) || CODE_EXPRESSION.test(value);
}
