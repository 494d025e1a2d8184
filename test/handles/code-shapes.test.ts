/**
 * Code shapes an agent reuses later that the extractor used to miss (diagnosed on real
 * transcripts: member chains, sigils, quoted kebab names, CSS classes, grep output, numbered
 * names), and the prose look-alikes that must stay out of the index.
 */
import { describe, expect, it } from 'vitest';
import { extractHandles } from '../../src/handles/extract.js';
import type { ExtractOptions } from '../../src/handles/extract.js';

function texts(input: string, kind?: string, options?: ExtractOptions): string[] {
  return extractHandles(input, options)
    .filter((handle) => kind === undefined || handle.kind === kind)
    .map((handle) => handle.text);
}

function pairs(input: string, options?: ExtractOptions): string[] {
  return extractHandles(input, options).map((handle) => `${handle.kind}:${handle.text}`);
}

describe('member chains', () => {
  it("extracts a one-letter local's member and module parts that start with digits, not prose abbreviations", () => {
    expect(texts('choices=[(m.value, m) for m in TextEnum]; if e.args: raise', 'identifier')).toEqual([
      'm.value',
      'TextEnum',
      'e.args',
    ]);
    expect(texts('from harbor.contrib.billing.migrations.0007_add_invoice_totals import f', 'identifier')).toEqual([
      'harbor.contrib.billing.migrations.0007_add_invoice_totals',
    ]);
    expect(texts('e.g. this, i.e. that, at 5 a.m. today', 'identifier')).toEqual([]);
    expect(texts('use v1.2 and 1.2.3', 'identifier')).toEqual([]);
  });

  it('reads a name before a format spec in a replacement field, and a name built with a printf placeholder', () => {
    expect(texts('f"{dt.year}-{dt.month:02d}-{dt.day:02d}"', 'identifier')).toEqual(['dt.year', 'dt.month', 'dt.day']);
    expect(texts("setattr(cls, 'get_next_by_%s' % self.name, f)", 'identifier')).toEqual([
      'get_next_by_%s',
      'self.name',
    ]);
    expect(texts('meet at 10:30 {x:y}', 'identifier')).toEqual([]);
  });

  it('takes a one-letter keyword argument only when its value is a dotted name', () => {
    expect(texts("qs.annotate(m=models.Max('id')).values('m')", 'assignment')).toEqual(['m=models.Max']);
    expect(texts('f(m=5); a=b; i=0', 'assignment')).toEqual([]);
  });

  it('extracts lowercase chains of two or more names', () => {
    expect(texts('if not settings.configured:\n    rnout = right.shape[0]', 'identifier')).toEqual([
      'settings.configured',
      'right.shape',
    ]);
    expect(texts('from harbor.db.models.sql.planner import Planner', 'identifier')).toEqual([
      'harbor.db.models.sql.planner',
    ]);
    expect(texts('pass re.IGNORECASE to compile; collections.Mapping is gone', 'identifier')).toEqual([
      're.IGNORECASE',
      'collections.Mapping',
    ]);
    expect(texts('use ExUnit.Case, async: false', 'identifier')).toEqual(['ExUnit.Case']);
  });

  it('leaves abbreviations and one-letter parts alone', () => {
    expect(texts('Use a cache, e.g. Redis, i.e. not U.S.A. stuff; self.x too')).toEqual([]);
  });
});

describe('sigils before a name', () => {
  it('skips negation, captures, atoms and a shebang', () => {
    expect(texts('if (!messageIds.includes(id))', 'identifier')).toEqual(['messageIds.includes']);
    expect(texts('|> Enum.map(&String.trim/1)', 'identifier')).toEqual(['Enum.map', 'String.trim/1']);
    expect(texts('post "/hooks/commit-event", HooksController, :commit_event)', 'identifier')).toContain(
      'commit_event',
    );
    expect(pairs('#!/usr/bin/env python3')).toEqual(['path:/usr/bin/env', 'identifier:python3']);
  });

  it('takes the member after a call (`.st_mode`) and the key of `KEY=[`', () => {
    expect(texts('mode = os.stat(saved).st_mode & 0o777', 'identifier')).toEqual(['os.stat', 'st_mode', '0o777']);
    expect(texts('settings.configure(INSTALLED_APPS=[\n', 'identifier')).toEqual([
      'settings.configure',
      'INSTALLED_APPS',
    ]);
  });
});

describe('hyphenated names', () => {
  it('are identifiers when quoted whole or in a code span', () => {
    expect(texts('inbox_dir: "test-dir",', 'identifier')).toContain('test-dir');
    expect(texts('el.classList.add("is-row-flash")', 'identifier')).toContain('is-row-flash');
    expect(texts('deploy `payments-api` first', 'identifier')).toEqual(['payments-api']);
    expect(texts('{"new_string": "class=\\"inbox-debug-grid\\""}', 'identifier')).toContain('inbox-debug-grid');
  });

  it('are CSS classes in a selector line', () => {
    expect(texts('.inbox-thread {\n  margin: 0;\n}', 'identifier')).toEqual(['inbox-thread']);
    expect(texts('.inbox-row.is-code .cell-text {', 'identifier')).toEqual(['inbox-row', 'is-code', 'cell-text']);
  });

  it('are prose otherwise', () => {
    expect(texts('a one-time, side-by-side, pre-existing and already-closed thing')).toEqual([]);
    expect(texts('"quoted words here" and "not-a" sentence-start')).toEqual(['not-a']);
  });
});

describe('grep output', () => {
  it('masks `1157:` gutters of tool output and keeps the path of a `path:match` line', () => {
    expect(texts('1157:.inbox-thread {\n1158-  margin-bottom: 2px;', 'identifier', { toolOutput: true })).toEqual([
      'inbox-thread',
    ]);
    expect(texts('/testbed/harbor/core/checks/storage.py:from os import x', 'path')).toEqual([
      '/testbed/harbor/core/checks/storage.py',
    ]);
    expect(texts('at 10:30 the job ran', undefined, { toolOutput: true })).toEqual([]);
  });
});

describe('other code shapes', () => {
  it('numbered names, radix literals, colours, MIME types, captures, remote refs', () => {
    expect(texts('sql1 = make; instance2 = Model3(2); run python3', 'identifier')).toEqual([
      'sql1',
      'instance2',
      'Model3',
      'python3',
    ]);
    expect(texts('os.open(path, flags, 0o666) and mask 0x1f', 'identifier')).toEqual(['os.open', '0o666', '0x1f']);
    expect(texts('background: #1a3a1a; color: #fff;', 'identifier')).toEqual(['#1a3a1a']);
    expect(texts('send it as application/json', 'identifier')).toEqual(['application/json']);
    expect(texts("branch set up to track 'origin/harbor-kq7'.", 'identifier')).toEqual(['origin/harbor-kq7']);
    expect(texts('prose like and/or, begin/end and ASC/DESC')).toEqual([]);
  });

  it('a name stamped with a date is one identifier; a date alone stays a date', () => {
    expect(texts('under each branch: 2026-03-14-a7e2d915 (1 checkpoints)', 'identifier')).toEqual([
      '2026-03-14-a7e2d915',
    ]);
    expect(pairs('log session-2026-04-02T11-08-3b7d1e6a and 2024-05-01-preview')).toContain(
      'identifier:2024-05-01-preview',
    );
    expect(pairs('released on 2026-01-06 to all')).toEqual(['date:2026-01-06']);
    expect(pairs('from 2026-01-06-2 on')).not.toContain('identifier:2026-01-06-2');
  });

  it('a Python repr is not a tag: its dotted name stays visible', () => {
    expect(texts("'<harbor.db.models.fields.SlugField: a>'", 'identifier')).toEqual([
      'harbor.db.models.fields.SlugField',
    ]);
    expect(texts('<div class="x">hi</div>', 'identifier')).toEqual([]);
  });
});

describe('module members are not files', () => {
  it('a called or module-headed `Name.ext` is an identifier', () => {
    expect(pairs('case System.cmd("git", args) do')).toEqual(['identifier:System.cmd']);
    expect(pairs('Logger.log and System.out print; console.log too')).toEqual([
      'identifier:Logger.log',
      'identifier:System.out',
      'identifier:console.log',
    ]);
    expect(pairs('open server.log and build.cmd')).toEqual(['path:server.log', 'path:build.cmd']);
  });

  it('a copy suffix keeps a file a path', () => {
    expect(pairs('cp stellar/io/tiles/tilerec.py stellar/io/tiles/tilerec.py.backup')).toEqual([
      'path:stellar/io/tiles/tilerec.py',
      'path:stellar/io/tiles/tilerec.py.backup',
    ]);
    expect(pairs('copy .env.example to .env')).toEqual(['path:.env.example', 'path:.env']);
  });
});

describe('capture arguments and header names', () => {
  it("extracts an Elixir capture argument's member, not a bare capture or a reference", () => {
    expect(texts('Enum.filter(lines, &(&1.kind == :thinking)) |> Enum.map(&(&2.tool_use_id))', 'identifier')).toEqual([
      'Enum.filter',
      '&1.kind',
      'Enum.map',
      '&2.tool_use_id',
    ]);
    expect(texts('Enum.map(xs, &(&1 + 1)) and see &1.2 of the spec', 'identifier')).toEqual(['Enum.map']);
  });

  it('extracts a header or trailer name at a line start when its value is prose, not capitalised prose labels', () => {
    expect(texts('Fix it\n\nCo-Authored-By: Claude Opus <noreply@anthropic.com>', 'identifier')).toEqual([
      'Co-Authored-By',
    ]);
    expect(texts('X-Request-Id: abc\nContent-Security-Policy: default-src self', 'identifier')).toEqual([
      'X-Request-Id',
      'Content-Security-Policy',
    ]);
    expect(
      texts('Follow-up: call the team\nRe-run: tomorrow\nNote: Co-Authored-By is a trailer', 'identifier'),
    ).toEqual([]);
  });
});

describe('module names are not hosts', () => {
  it('reads a capitalised last label as a module name, and a lower-case one as a host', () => {
    const kinds = (text: string) => extractHandles(text).map((handle) => `${handle.kind}:${handle.text}`);
    expect(kinds('raised Ash.Error.Invalid on create').some((entry) => entry.startsWith('endpoint:'))).toBe(false);
    expect(kinds('connect to db.example.com now')).toContain('endpoint:db.example.com');
    expect(kinds('connect to DB.EXAMPLE.COM now')).toContain('endpoint:DB.EXAMPLE.COM');
  });
});
