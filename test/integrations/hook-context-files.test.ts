/**
 * The injected context lists the names read from a file under that file (issue 38: what is injected must be readable,
 * values bound to what they are): which file a tool result shows, the regrouping, and the rendered context.
 */
import { describe, expect, it } from 'vitest';
import type { IndexGroup } from '../../src/handle-index/index-layout.js';
import { buildHookContext } from '../../src/integrations/claude-code/hook-context.js';
import { groupByFile } from '../../src/integrations/claude-code/hook-context-groups.js';
import { fileReadBy, printedFile, resultFiles } from '../../src/integrations/claude-code/hook-context-sources.js';
import type { SourceSpan } from '../../src/integrations/claude-code/hook-context-sources.js';
import type { Handle } from '../../src/types.js';
import { handleAt, memoryLedger, readTurns, SEED_OPENING } from '../helpers.js';

const call = (toolName: string, args: unknown) => ({
  kind: 'tool-call' as const,
  text: JSON.stringify(args),
  toolName,
  toolCallId: 'c1',
});

describe('which file a tool call reads', () => {
  it('takes the path argument of a read tool, verbatim', () => {
    expect(fileReadBy(call('Read', { file_path: '/repo/cmd/list.go', limit: 80 }))).toBe('/repo/cmd/list.go');
    expect(fileReadBy(call('str_replace_based_edit_tool', { command: 'view', path: 'src/a.ts' }))).toBe('src/a.ts');
    expect(fileReadBy(call('Edit', { file_path: '/repo/cmd/list.go', old_string: 'a', new_string: 'b' }))).toBe(
      undefined,
    );
  });

  it('takes the one file a shell command prints, after a cd and before a pipe', () => {
    expect(printedFile("sed -n '1,260p' packages/core/src/types.ts")).toBe('packages/core/src/types.ts');
    expect(printedFile("cd /home/u/app && sed -n '1,120p' src/cli.ts")).toBe('src/cli.ts');
    expect(printedFile("nl -ba src/cli.ts | sed -n '40,80p'")).toBe('src/cli.ts');
    expect(printedFile('cat go.mod')).toBe('go.mod');
    expect(printedFile('head -n 40 README.md')).toBe('README.md');
    expect(fileReadBy(call('exec_command', { cmd: "sed -n '1,40p' a/b.ts", workdir: '/w' }))).toBe('a/b.ts');
  });

  it('names no file for a search, a test run, two files or a command list', () => {
    expect(printedFile('grep -rn ParseTrailer cmd/')).toBe(undefined);
    expect(printedFile('go test ./...')).toBe(undefined);
    expect(printedFile('cat a.ts b.ts')).toBe(undefined);
    expect(printedFile('cat a.ts; rm -rf build')).toBe(undefined);
    expect(printedFile("sed -i 's/a/b/' a.ts")).toBe(undefined);
  });

  it('maps each tool result to the file its own call read', () => {
    const spans = new Map<string, SourceSpan>([
      ['call', call('Read', { file_path: '/repo/a.go' })],
      ['result', { kind: 'tool-result' as const, text: 'package a', toolName: 'Read', toolCallId: 'c1' }],
      ['other', { kind: 'tool-result' as const, text: 'ok', toolName: 'Bash', toolCallId: 'c2' }],
    ]);
    expect([...resultFiles(spans)]).toEqual([['result', '/repo/a.go']]);
  });
});

describe('groupByFile', () => {
  const path = handleAt('/repo/cmd/list.go', 'path');
  const name = handleAt('errors.New');
  const other = handleAt('branchName');
  const loose = handleAt('cobra.Command');
  const order = [path, name, other, loose];
  const place = (handle: Handle) => order.indexOf(handle);
  const groups: IndexGroup[] = [
    { label: 'path', entries: [{ handle: path, similar: 0 }] },
    {
      label: 'identifier',
      entries: [name, other, loose].map((handle) => ({ handle, similar: 0 })),
    },
  ];

  it('moves the names read from a listed file under it, and the file off the path line', () => {
    const fileOf = (handle: Handle) =>
      handle === name || handle === other ? '/repo/cmd/list.go' : handle === loose ? '/repo/root.go' : undefined;
    const regrouped = groupByFile(groups, fileOf, place);
    expect(regrouped.map((group) => [group.label, group.entries.map((entry) => entry.handle.text)])).toEqual([
      ['from /repo/cmd/list.go', ['errors.New', 'branchName']],
      // root.go is not listed among the paths: a label for it would cost more than its names are worth.
      ['identifier', ['cobra.Command']],
    ]);
  });

  it('leaves the groups as they are when no name comes from a listed file', () => {
    const regrouped = groupByFile(groups, () => undefined, place);
    expect(regrouped).toEqual(groups);
  });
});

describe('buildHookContext and files', () => {
  it('shows the names of a file the agent read under that file, and the file once', async () => {
    const ledger = memoryLedger();
    const session = await ledger.session('files-1');
    const file = '/repo/cmd/entire/cli/list/data.go';
    await session.append([
      SEED_OPENING,
      ...readTurns(
        file,
        'func load(repo *git.Repository) error {\n\treturn errors.New("no branch")\n}\n',
        'Reading the list data code.',
      ),
      {
        role: 'assistant',
        content: `Next I edit ${file} to wrap errors.New with the git.Repository name.`,
        toolCalls: [{ id: 'e1', name: 'Edit', arguments: JSON.stringify({ file_path: file, old_string: 'a' }) }],
      },
    ]);
    await session.importExternalSummary({
      summary: 'Working on the list command.',
      summarizer: { name: 'claude-code', version: '2.1.0' },
    });
    const text = (await buildHookContext({ ledger, sessionId: 'files-1' }))?.text ?? '';
    const line = text.split('\n').find((each) => each.startsWith(`from ${file}: `));
    expect(line).toContain('errors.New');
    expect(line).toContain('git.Repository');
    expect(text.split(file)).toHaveLength(2);
    expect(text).not.toMatch(/^path: .*data\.go/m);
    await ledger.close();
  });
});
