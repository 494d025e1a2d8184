import { describe, expect, it } from 'vitest';
import { extractHandles } from '../../src/handles/extract.js';
import { maskMarkup } from '../../src/handles/markup.js';

function pairs(text: string, toolOutput = false): string[] {
  const handles = extractHandles(text, { toolOutput });
  for (const handle of handles) expect(text.slice(handle.start, handle.end)).toBe(handle.text);
  return handles.map((handle) => `${handle.kind}:${handle.text}`);
}

const ESC = '\u001b';

describe('markup view', () => {
  it('keeps the length and blanks only markup', () => {
    const text = `${ESC}[1mbold${ESC}[0m <b>x</b> "a\\"b" 12→\n  12→end`;
    const { view } = maskMarkup(text);
    expect(view.length).toBe(text.length);
    expect(view).toBe('    bold     ' + '   x    ' + ' "a  b" 12→\n' + '     end');
  });

  it('turns a JSON \\n escape into a space and a line feed', () => {
    expect(maskMarkup('one\\ntwo').view).toBe('one \ntwo');
  });

  it('returns the text itself when there is no markup', () => {
    const view = maskMarkup('plain text, src/a.ts');
    expect(view.masked).toBe(false);
    expect(view.view).toBe('plain text, src/a.ts');
  });
});

describe('terminal escapes', () => {
  it('are never read as numbers or made part of a handle', () => {
    expect(pairs(`${ESC}[22mtimeout 30s${ESC}[0m`)).toEqual(['number:timeout 30s']);
    expect(pairs(`${ESC}[2m${ESC}[22m`)).toEqual([]);
    expect(pairs(`${ESC}[31msrc/handles/markup.ts${ESC}[39m`)).toEqual(['path:src/handles/markup.ts']);
  });

  it('are recognised when written out as \\u001b, \\x1b or \\033', () => {
    expect(pairs('"\\u001b[22m ok \\u001b[2m"')).toEqual([]);
    expect(pairs('printf "\\033[1mdist/app.js\\033[0m"')).toEqual(['path:dist/app.js']);
    expect(pairs('\\x1b[4mv1.2.3\\x1b[24m')).toEqual(['version:v1.2.3']);
  });

  it('mask OSC titles', () => {
    expect(pairs(`${ESC}]0;~/work/repo${'\u0007'}ok`)).toEqual([]);
  });
});

describe('JSON string escapes', () => {
  it('end a route, path or URL', () => {
    expect(pairs('{"command":"curl -X POST /api/hooks/session-start\\" -d {}"}')).toEqual([
      'endpoint:POST /api/hooks/session-start',
    ]);
    expect(pairs('{"a":"see https://x.io/a\\nthen"}')).toEqual(['url:https://x.io/a']);
    expect(pairs('{"a":"open \\"lib/spotter/app.ex\\" now"}')).toEqual(['path:lib/spotter/app.ex']);
  });

  it('are not assignment values', () => {
    expect(pairs('"<div style=\\"color: red\\" phx-click=\\"save\\">"')).toEqual([]);
  });

  it('read a doubly escaped control (JSON quoting code that prints \\n) as markup, not as a letter', () => {
    // The tool-call arguments hold `print("\\nFound", merged_css_2)`: the n belongs to the escape.
    const text = '{"command":"python -c \'print(\\"\\\\nFound\\", merged_css_2)\'"}';
    const handles = pairs(text);
    expect(handles).toContain('identifier:merged_css_2');
    expect(handles.some((pair) => pair.endsWith(':nFound'))).toBe(false);
  });

  it('never leave a handle starting or ending inside the escape', () => {
    expect(pairs('"a\\nsrc/a.ts\\tb"')).toEqual(['path:src/a.ts']);
    expect(pairs('"\\u00e9t\\u00e9 README.md"')).toEqual(['path:README.md']);
  });

  it('leave Windows drive paths alone', () => {
    expect(pairs('Copy it to C:\\Users\\dana\\report.txt first.')).toEqual(['path:C:\\Users\\dana\\report.txt']);
    expect(pairs('In C:\\temp\\new\\tmp.txt we go')).toEqual(['path:C:\\temp\\new\\tmp.txt']);
  });

  it('read `as f:\\n` in an escaped command as a line break, not as the drive path f:\\n', () => {
    expect(pairs('"with open(\'x.txt\') as f:\\n    data = f.read()"')).not.toContain('path:f:\\n');
    expect(pairs('"case 1:\\t x" and "match y:\\r"').filter((pair) => pair.startsWith('path:'))).toEqual([]);
    expect(pairs('Saved to D:\\n2.txt')).toEqual(['path:D:\\n2.txt']);
  });

  it('split a sentence at a \\n escape, so a constraint holds none', () => {
    expect(pairs('"Key files:\\nDo not touch src/a.ts.\\nThanks"')).toEqual([
      'constraint:Do not touch src/a.ts.',
      'path:src/a.ts',
    ]);
  });
});

describe('markup tags', () => {
  it('are never paths or identifiers', () => {
    expect(pairs('<local-command-caveat>x</local-command-caveat> <command-name>/clear</command-name>')).toEqual([
      'path:/clear',
    ]);
    expect(pairs('<div class="row"><button>Go</button></div>')).toEqual(['assignment:class="row"']);
    expect(pairs('<my_tag/> <br/> <img src="logo.png" />')).toEqual(['assignment:src="logo.png"', 'path:logo.png']);
  });

  it('end a config line', () => {
    const found = pairs('<usage>total_tokens: 1200\nduration_ms: 32855</usage>');
    expect(found).toContain('assignment:total_tokens: 1200');
    expect(found).toContain('assignment:duration_ms: 32855');
  });

  it('keep autolinks, emails and attribute URLs', () => {
    expect(pairs('<https://status.acme.io>')).toEqual(['url:https://status.acme.io']);
    expect(pairs('<dana@acme.io>')).toEqual(['email:dana@acme.io']);
    expect(pairs('<a href="https://x.io/docs">docs</a>')).toContain('url:https://x.io/docs');
  });

  it('leave the placeholders of a path or name template visible, so their names are handles', () => {
    expect(pairs('pushed to `ci/nightly-logs/<build_ts>-<job_slug>-<rand4>` on conflict')).toEqual([
      'path:ci/nightly-logs/',
      'identifier:build_ts',
      'identifier:job_slug',
      'identifier:rand4',
    ]);
    expect(pairs('// Names look like: YYYY-MM-DD-<worker-run-uuid>', true)).toEqual(['identifier:worker-run-uuid']);
    expect(pairs('Backup branches are named backup/<parent-commit-short-sha>.')).toContain(
      'identifier:parent-commit-short-sha',
    );
    expect(maskMarkup('runs/<run_id>/out').view).toBe('runs/<run_id>/out');
  });

  it('still mask tags next to a dash or slash: closed, void, with attributes, self-closing, or a regex group', () => {
    for (const text of ['<td>-</td>', 'a<br>-b', 'x/<span class="k">-', 'a-<br/>', 'see <module> here']) {
      expect(maskMarkup(text).view).not.toContain('<');
    }
    expect(pairs('<li>-<b>x_y</b></li>')).toEqual(['identifier:x_y']);
    expect(maskMarkup('(?P<path>.+)/').view).toBe('(?P      .+)/');
    expect(pairs('<system-reminder>-note</system-reminder>')).toEqual([]);
  });

  it('leave a placeholder standing alone in a shell command visible: after a prompt, beside options, in a shell block', () => {
    expect(pairs('$ fleetctl attach <worker-slot>')).toEqual(['identifier:worker-slot']);
    expect(pairs('fleetctl attach <worker-slot> --follow')).toContain('identifier:worker-slot');
    expect(pairs('Run:\n\n```bash\nfleetctl drain <node_name>\n```\n', true)).toEqual(['identifier:node_name']);
    expect(pairs('```sh\nfleetctl logs <job-id>\n```\n\n```html\n<nav-bar>\n```')).toEqual(['identifier:job-id']);
  });

  it('still mask a lone tag outside a command: in prose, in a block of markup, closed, one word, or a void tag', () => {
    for (const text of [
      'see <my-module> here',
      '```html\n<nav-bar>\nx <side-panel> y\n```',
      '```bash\necho done\n```\nthen <status-badge> shows',
      '$ render <nav-bar>ok</nav-bar>',
      '$ fleetctl attach <worker>',
      'fleetctl attach <br> --follow',
    ])
      expect(maskMarkup(text).view, text).not.toMatch(/<[a-z]/);
    expect(pairs('<app-shell>\n  <nav-bar></nav-bar>\n</app-shell>')).toEqual([]);
  });

  it('read a placeholder that opens with a count as a name', () => {
    expect(pairs('Header: "Build: <8-char-tag>"')).toContain('identifier:8-char-tag');
    expect(pairs('stored under shards/<2-char-prefix>/<rest-of-id>/meta.json')).toEqual([
      'path:shards/',
      'identifier:2-char-prefix',
      'identifier:rest-of-id',
      'path:/meta.json',
    ]);
    expect(pairs('widths of <12> and 3-col-grid')).toEqual([]);
  });

  it('are never inside a constraint', () => {
    expect(pairs('Always use <span>, never <pre><code>.')).toEqual([]);
  });
});

describe('line-number gutters', () => {
  it('are blanked at line starts: arrows anywhere, tabs and colons in tool output', () => {
    expect(pairs('   101→  timeout: 30s\n   102→  port 5432')).not.toContain('number:101');
    expect(pairs('    12\tconst x = config.max_retries;', true)).toEqual(['identifier:config.max_retries']);
    expect(pairs('  12: const max_retries = 3;', true)).toEqual(['identifier:max_retries']);
  });

  it('make a line-numbered dump of code hold no constraints, config lines or error lines', () => {
    const dump =
      '   101→    case System.cmd("git", args) do\n   102→  # Do not call this from a test.\n   103→  mode: "read-only"\n   104→RuntimeError: boom';
    expect(pairs(dump, true).filter((pair) => /^(?:constraint|assignment|error):/.test(pair))).toEqual([]);
  });

  it("are read through: a document's rule read with a gutter is a (quoted) constraint, the gutter not part of it", () => {
    expect(pairs('    7\tNever deploy on Fridays.', true)).toEqual(['constraint:Never deploy on Fridays.']);
  });

  it('are not gutters outside tool output when written with a tab or colon', () => {
    expect(pairs('12: Never deploy on Fridays.')).toEqual(['constraint:12: Never deploy on Fridays.']);
  });
});

describe('constraints are prose', () => {
  it('skips code-looking lines', () => {
    for (const line of [
      '{:quick_check, ">= 0.3.0", only: :test}',
      'if (readOnly && !force) { return; }',
      'x = only_if(y) || never',
      '  |> Enum.filter(&(&1.only))',
    ]) {
      expect(extractHandles(line, { kinds: ['constraint'] }), line).toEqual([]);
    }
  });

  it('ends a sentence at the closing quote of a JSON string', () => {
    const found = pairs('{"a":1,\n"prompt":"Read the files. Please do not summarize.","model":"sonnet"}');
    expect(found).toContain('constraint:Please do not summarize.');
  });

  it('skips a trigger inside inline code but keeps prose around code', () => {
    expect(
      pairs('Added `{:quick_check, ">= 0.3.0", only: :test}` to mix.exs.').filter((pair) =>
        pair.startsWith('constraint:'),
      ),
    ).toEqual([]);
    expect(pairs('Never use `==` to compare floats.')).toContain('constraint:Never use `==` to compare floats.');
  });
});

describe('config lines of code decoded from JSON', () => {
  it('are not assignments when the value opens a block or repeats the key', () => {
    const found = pairs(
      '{"new_string":"    %{\\n      content: %{\\n      session_id: session_id,\\n      mode: :plain\\n"}',
    );
    expect(found.filter((pair) => pair.startsWith('assignment:'))).toEqual(['assignment:mode: :plain']);
  });
});

describe('template placeholders and word fragments', () => {
  it('keeps a URL with a ${…} placeholder whole', () => {
    expect(pairs('fetch(`http://127.0.0.1:${port}/api/hooks`)')).toEqual(['url:http://127.0.0.1:${port}/api/hooks']);
  });

  it('keeps CLI flags and code symbols', () => {
    expect(pairs('run mix compile --warnings-as-errors, then String.trim and to_string')).toEqual([
      'identifier:--warnings-as-errors',
      'identifier:String.trim',
      'identifier:to_string',
    ]);
  });
});
