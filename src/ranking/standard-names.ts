/**
 * Names every program in a language uses, which say nothing about this session: a standard library's members
 * (`fmt.Errorf`, `os.Stderr`, `strings.TrimSpace`, `json.dumps`, `os.path.join`, `console.log`, `JSON.stringify`,
 * `Enum.map`), a test framework's receiver calls (`t.Errorf`, `self.assertEqual`), standard import paths
 * (`path/filepath`, `log/slog`, `node:fs/promises`) and the system's device and shell paths (`/dev/null`, `/bin/sh`).
 * An agent writes them from its knowledge of the language, never from the index: listed there (`identifier: fmt.Errorf
 * | os.Stderr | t.Fatalf …`) they crowd out what the session set. The ranking weighs them last (`standardName`); they
 * stay in the ledger and recallable like any handle.
 */
import type { Handle } from '../types.js';
import { isStdPackagePath } from '../handles/std-packages.js';

/** Standard modules whose members are reached as `module.member` (Go, Python, JavaScript/Node, Elixir, Ruby, Java). */
const MODULES: ReadonlySet<string> = new Set(
  // Go
  (
    'fmt os strings strconv bytes bufio errors io ioutil time context sync atomic sort slices maps filepath path ' +
    'json http url exec slog log regexp reflect runtime math rand utf8 unicode signal hex base64 sha256 hash ' +
    // Python
    'sys re subprocess shutil logging itertools functools collections typing pathlib datetime tempfile textwrap ' +
    'unittest pytest mock argparse inspect copy random string glob pickle csv asyncio threading ' +
    // JavaScript and Node
    'console JSON Object Array Math Promise Number String Date Reflect Symbol Buffer process fs assert util ' +
    'crypto child_process readline vi jest expect ' +
    // Elixir, Ruby, Java
    'Enum Map Kernel IO Logger Keyword List Integer Float Process Task Agent GenServer File Path System Regex ' +
    'Application Code Access Stream Tuple Atom puts Rails Collections Arrays Objects Optional'
  ).split(' '),
);

/**
 * Go packages whose names are just as often a variable's (`path`, `url`, `hash`, `errors`): a Go package's member is
 * exported, so it starts with a capital (`path.Join`, `url.Parse`); `path.startswith`, `errors.append` or
 * `url.scheme` is a variable of this session's code.
 */
const VARIABLE_LIKE: ReadonlySet<string> = new Set(
  'path url hash copy string sort context errors bytes exec'.split(' '),
);
/** Methods of a test's receiver (`t` in Go, `self` in Python's unittest): what every test calls. */
const TEST_RECEIVER = new RegExp(
  String.raw`^(?:t|b|tb|s|self)\.(?:assert\w*|Error|Errorf|Fatal|Fatalf|Fail\w*|Run|Helper|Parallel|Cleanup|` +
    String.raw`TempDir|Setenv|Skip\w*|Log|Logf|Name|Context|N)$`,
);
/** `module.member`, `module.member()`, `module.sub.member(…)` with up to three segments. */
const MEMBER = /^([A-Za-z_][\w]*)(?:\.[A-Za-z_]\w*){1,2}(?:\(\))?$/;
/** Device, shell and temp paths of the system itself. */
const SYSTEM_PATHS: ReadonlySet<string> = new Set(
  '/dev/null /dev/tty /dev/stdin /dev/stdout /dev/stderr /dev/zero /dev/urandom /bin/sh /bin/bash /usr/bin/env /tmp'.split(
    ' ',
  ),
);

/** Whether a handle is a name every program in its language uses (see the module comment). */
export function isStandardName(handle: Pick<Handle, 'kind' | 'text'>): boolean {
  const { kind, text } = handle;
  if (kind === 'path') return SYSTEM_PATHS.has(text) || isStdPackagePath(text);
  if (kind !== 'identifier') return false;
  const bare = text.endsWith('()') ? text.slice(0, -2) : text;
  if (TEST_RECEIVER.test(bare)) return true;
  const member = MEMBER.exec(text);
  const module = member?.[1] ?? '';
  if (!MODULES.has(module)) return false;
  return !VARIABLE_LIKE.has(module) || /^[A-Z]/.test(text.slice(module.length + 1));
}
