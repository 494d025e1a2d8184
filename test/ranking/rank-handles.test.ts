import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { changedTargets, isEditTool, shellWriteTargets } from '../../src/ranking/changed-paths.js';
import { fitHandleBudget } from '../../src/compaction/guards.js';
import { entryCost, GROUP_HEADER_TOKENS } from '../../src/handle-index/index-layout.js';
import { handleIdentity } from '../../src/handles/handle-sets.js';
import { DEFAULT_RANK_WEIGHTS } from '../../src/ranking/rank-weights.js';
import { rankHandles } from '../../src/ranking/rank-handles.js';
import { rankedOrder } from '../../src/ranking/ranked-order.js';
import type { RankEvidence, RankSpan } from '../../src/ranking/rank-evidence.js';
import { createSpan } from '../../src/model/span.js';
import type { Handle, HandleKind, Role, SourceKind } from '../../src/types.js';
import { createLedger, createMemoryStore } from '../../src/index.js';
import type { RankWeightsInput } from '../../src/index.js';

interface Turn {
  readonly kind: SourceKind;
  readonly text: string;
  readonly toolName?: string;
  readonly tokens?: number;
}

/** A tiny session: spans in order, and one handle row per (span, handle text found in it). */
function session(turns: readonly Turn[], handleTexts: readonly { text: string; kind: HandleKind }[]) {
  const spans = new Map<string, RankSpan>();
  const occurrences: Handle[] = [];
  turns.forEach((turn, seq) => {
    const span = createSpan({
      kind: turn.kind,
      text: turn.text,
      toolName: turn.toolName,
      tokens: turn.tokens ?? Math.ceil(turn.text.length / 4),
    });
    spans.set(span.id, span);
    const role: Role =
      turn.kind === 'tool-result' ? 'tool' : turn.kind === 'tool-call' ? 'assistant' : (turn.kind as Role);
    for (const { text, kind } of handleTexts) {
      const start = turn.text.indexOf(text);
      if (start < 0) continue;
      occurrences.push({
        kind,
        text,
        key: text.toLowerCase(),
        start,
        end: start + text.length,
        spanId: span.id,
        seq,
        role,
        tokens: Math.max(1, Math.ceil(text.length / 4)),
      });
    }
  });
  const earliest = new Map<string, Handle>();
  for (const handle of occurrences)
    if (!earliest.has(handleIdentity(handle))) earliest.set(handleIdentity(handle), handle);
  const evidence: RankEvidence = { occurrences, spans, fromSeq: 0, toSeq: turns.length - 1 };
  return { handles: [...earliest.values()], evidence };
}

const fileDump = (symbol: string): Turn => ({
  kind: 'tool-result',
  text: `defmodule App do\n${'  # filler line of the file\n'.repeat(60)}  def ${symbol}(x), do: x\nend`,
  tokens: 900,
});

describe('rankHandles', () => {
  it('ranks a path the agent edited five times above a symbol seen once in a file dump', () => {
    const path = 'lib/app/review_live.ex';
    const turns: Turn[] = [];
    for (let round = 0; round < 5; round++) {
      turns.push({
        kind: 'tool-call',
        toolName: 'Edit',
        text: JSON.stringify({ file_path: path, old_string: `a${round}`, new_string: `b${round}` }),
      });
      turns.push({ kind: 'tool-result', text: 'The file has been updated.' });
    }
    turns.push(fileDump('format_annotation_row'));
    const { handles, evidence } = session(turns, [
      { text: path, kind: 'path' },
      { text: 'format_annotation_row', kind: 'identifier' },
    ]);
    const ranked = rankHandles(handles, evidence);
    expect(ranked.map((entry) => entry.handle.text)).toEqual([path, 'format_annotation_row']);
    expect(ranked[0]?.features.changed).toBe(true);
    expect(ranked[1]?.features.dumpOnly).toBe(true);
  });

  it('ranks a handle the user said above one seen only in a tool dump, even when the dump is more recent', () => {
    const { handles, evidence } = session(
      [
        { kind: 'user', text: 'Deploy with PAYMENTS_DB_REPLICA=eu-west-2b please.' },
        { kind: 'assistant', text: 'Looking.' },
        fileDump('unrelated_helper_fn'),
      ],
      [
        { text: 'PAYMENTS_DB_REPLICA=eu-west-2b', kind: 'assignment' },
        { text: 'unrelated_helper_fn', kind: 'identifier' },
      ],
    );
    const ranked = rankHandles(handles, evidence);
    expect(ranked[0]?.handle.text).toBe('PAYMENTS_DB_REPLICA=eu-west-2b');
    expect(ranked[0]?.features.userSaid).toBe(true);
  });

  it('penalises a handle still visible in the recent turns, and lets weights be overridden', () => {
    const { handles, evidence } = session(
      [{ kind: 'assistant', text: 'Edit src/alpha.ts then src/beta.ts' }],
      [
        { text: 'src/alpha.ts', kind: 'path' },
        { text: 'src/beta.ts', kind: 'path' },
      ],
    );
    const visible = rankHandles(handles, { ...evidence, visibleText: 'next I open src/alpha.ts' });
    expect(visible[0]?.handle.text).toBe('src/beta.ts');
    const ignoringVisibility = rankHandles(
      handles,
      { ...evidence, visibleText: 'next I open src/alpha.ts' },
      { ...DEFAULT_RANK_WEIGHTS, visibleInWindow: 0 },
    );
    expect(ignoringVisibility.find((entry) => entry.handle.text === 'src/alpha.ts')?.features.visibleInWindow).toBe(
      true,
    );
    expect(ignoringVisibility[0]?.score).toBeCloseTo(ignoringVisibility[1]?.score ?? Number.NaN, 5);
  });

  it('ranks the same with the identities given as without, and refuses identities that do not match the handles', () => {
    const { handles, evidence } = session(
      [
        { kind: 'user', text: 'Deploy with PAYMENTS_DB_REPLICA=eu-west-2b please.' },
        { kind: 'assistant', text: 'Looking at unrelated_helper_fn.' },
        fileDump('unrelated_helper_fn'),
      ],
      [
        { text: 'PAYMENTS_DB_REPLICA=eu-west-2b', kind: 'assignment' },
        { text: 'unrelated_helper_fn', kind: 'identifier' },
      ],
    );
    const identities = handles.map(handleIdentity);
    expect(rankHandles(handles, evidence, DEFAULT_RANK_WEIGHTS, identities)).toEqual(rankHandles(handles, evidence));
    // The order alone, as a compaction asks for it, is the same order.
    const order = rankHandles(handles, evidence).map((entry) => entry.handle);
    expect(rankedOrder(handles, evidence, DEFAULT_RANK_WEIGHTS, { identities })).toEqual(order);
    expect(rankedOrder([...handles].reverse(), evidence)).toEqual(order);
    expect(() => rankHandles(handles, evidence, DEFAULT_RANK_WEIGHTS, identities.slice(1))).toThrow(
      /1 identities were given for 2 handles/,
    );
  });

  it('ranks a name from a fetched task spec (a tool result that states a requirement) above one from a plain dump', () => {
    const spec: Turn = {
      kind: 'tool-result',
      text: `Task spotter-9: add lib/app/review_builder.ex.\nThe builder must not block startup.\nDo not add a cache.\n${'detail line\n'.repeat(80)}`,
      tokens: 600,
    };
    const dump: Turn = {
      kind: 'tool-result',
      text: `Listing: lib/app/other_module.ex\n${'detail line\n'.repeat(80)}`,
      tokens: 600,
    };
    const { handles, evidence } = session(
      [dump, spec],
      [
        { text: 'lib/app/review_builder.ex', kind: 'path' },
        { text: 'lib/app/other_module.ex', kind: 'path' },
        { text: 'The builder must not block startup.', kind: 'constraint' },
        { text: 'Do not add a cache.', kind: 'constraint' },
      ],
    );
    const paths = handles.filter((handle) => handle.kind === 'path');
    // The dump is older, so recency alone already favours the spec; make the two equally recent.
    const sameSeq = { ...evidence, toSeq: 1 };
    const ranked = rankHandles(paths, sameSeq);
    const spec0 = ranked.find((entry) => entry.handle.text === 'lib/app/review_builder.ex');
    const dump0 = ranked.find((entry) => entry.handle.text === 'lib/app/other_module.ex');
    expect(spec0?.features.specified).toBe(true);
    expect(dump0?.features.specified).toBe(false);
    // Both results are bulky: the dump's names are dump-only, the spec's are not (its bulk is its requirements).
    expect(dump0?.features.dumpOnly).toBe(true);
    expect(spec0?.features.dumpOnly).toBe(false);
    const without = rankHandles(paths, sameSeq, { ...DEFAULT_RANK_WEIGHTS, specified: 0 });
    const gain = (spec0?.score ?? 0) - (without.find((entry) => entry.handle === spec0?.handle)?.score ?? 0);
    expect(gain).toBeCloseTo(DEFAULT_RANK_WEIGHTS.specified, 5);
  });

  it('does not count one incidental requirement, an assistant statement or a user message as a spec', () => {
    const { handles, evidence } = session(
      [{ kind: 'tool-result', text: 'See lib/app/review_builder.ex. We must not block startup. Do not add a cache.' }],
      [
        { text: 'lib/app/review_builder.ex', kind: 'path' },
        { text: 'We must not block startup.', kind: 'constraint' },
        { text: 'Do not add a cache.', kind: 'constraint' },
      ],
    );
    const once = {
      ...evidence,
      occurrences: evidence.occurrences.filter((handle) => handle.text !== 'Do not add a cache.'),
    };
    const asAssistant = {
      ...evidence,
      occurrences: evidence.occurrences.map((handle) =>
        handle.kind === 'constraint' ? { ...handle, role: 'assistant' as Role } : handle,
      ),
    };
    const asUser = {
      ...evidence,
      occurrences: evidence.occurrences.map((handle) => ({ ...handle, role: 'user' as Role })),
    };
    const path = handles.filter((handle) => handle.kind === 'path');
    expect(rankHandles(path, evidence)[0]?.features.specified).toBe(true);
    expect(rankHandles(path, once)[0]?.features.specified).toBe(false);
    expect(rankHandles(path, asAssistant)[0]?.features.specified).toBe(false);
    expect(rankHandles(path, asUser)[0]?.features.specified).toBe(false);
  });
});

describe('what the session changed', () => {
  it('recognises edit/write tool names case-insensitively, and not TodoWrite or Read', () => {
    for (const name of ['Edit', 'Write', 'MultiEdit', 'str_replace_editor', 'apply_patch', 'edit_file', 'NotebookEdit'])
      expect(isEditTool(name)).toBe(true);
    for (const name of ['TodoWrite', 'Read', 'Bash', 'Grep', undefined]) expect(isEditTool(name)).toBe(false);
  });

  it('finds the files a shell command writes: sed -i, redirects, tee, str_replace_editor', () => {
    expect(shellWriteTargets("sed -i 's/old/new/' astropy/modeling/separable.py && echo done")).toEqual([
      'astropy/modeling/separable.py',
    ]);
    expect(shellWriteTargets('cat <<EOF > /testbed/reproduce.py\nprint(1)\nEOF')).toEqual(['/testbed/reproduce.py']);
    expect(shellWriteTargets('python run.py 2>&1 >> logs/out.txt | tee -a logs/all.txt')).toEqual([
      'logs/out.txt',
      'logs/all.txt',
    ]);
    expect(shellWriteTargets('ls -la > /dev/null 2>&1')).toEqual([]);
    expect(shellWriteTargets('str_replace_editor create /testbed/fix.py --file_text x')).toEqual(['/testbed/fix.py']);
    expect(
      changedTargets({
        kind: 'tool-call',
        toolName: 'bash',
        text: JSON.stringify({ command: "sed -i 's/a/b/' src/x.py" }),
      }),
    ).toEqual(['src/x.py']);
    expect(
      changedTargets({
        kind: 'tool-call',
        toolName: 'Write',
        text: JSON.stringify({ file_path: '/repo/lib/a.ex', content: 'see lib/b.ex' }),
      }),
    ).toEqual(['/repo/lib/a.ex']);
    expect(changedTargets({ kind: 'tool-result', toolName: 'Write', text: '/repo/lib/a.ex' })).toEqual([]);
  });
});

const arbitraryHandle = fc.record({
  kind: fc.constantFrom<HandleKind>('path', 'identifier', 'constraint', 'number', 'error', 'url'),
  text: fc.oneof(
    fc.stringMatching(/^[a-z_]{3,12}$/),
    fc
      .integer({ min: 0, max: 40 })
      .map((n) => `2026-11-12T10:00:${String(n % 60).padStart(2, '0')} ERROR worker ${n} lost its lease`),
    fc.integer({ min: 0, max: 9 }).map((n) => `Never restart pool ${n} during business hours.`),
    fc.constantFrom('lib/a.ex', '/home/u/app/lib/a.ex', 'src/x.ts'),
  ),
  role: fc.constantFrom<Role>('user', 'assistant', 'tool', 'system'),
  seq: fc.integer({ min: 0, max: 50 }),
});

describe('fitHandleBudget', () => {
  it('never drops a handle: kept and spilled are exactly the input, for any budget', () => {
    fc.assert(
      fc.property(fc.array(arbitraryHandle, { maxLength: 60 }), fc.integer({ min: 1, max: 400 }), (drafts, budget) => {
        const seen = new Set<string>();
        const handles: Handle[] = drafts
          .filter(
            (draft) => !seen.has(`${draft.kind}\u0000${draft.text}`) && seen.add(`${draft.kind}\u0000${draft.text}`),
          )
          .map((draft, index) => ({
            ...draft,
            key: draft.text.toLowerCase(),
            start: index,
            end: index + draft.text.length,
            spanId: `sha256:${index}`,
            tokens: Math.ceil(draft.text.length / 4),
          }));
        const { kept, spilled } = fitHandleBudget(handles, budget, 'spill', { sessionId: 'p' });
        expect(kept.length + spilled.length).toBe(handles.length);
        expect(new Set([...kept, ...spilled])).toEqual(new Set(handles));
      }),
      { numRuns: 200 },
    );
  });

  it('keeps the top-ranked handles that fit and spills the rest, instructions first', () => {
    const make = (text: string, kind: HandleKind, role: Role, seq: number): Handle => ({
      kind,
      text,
      key: text,
      start: 0,
      end: text.length,
      spanId: `sha256:${seq}`,
      seq,
      role,
      tokens: 4,
    });
    const instruction = make('Never target eu-west-1.', 'constraint', 'user', 0);
    const handles = [
      make('alpha_one', 'identifier', 'tool', 1),
      make('beta_two', 'identifier', 'tool', 2),
      instruction,
      make('gamma_three', 'identifier', 'tool', 3),
    ];
    const ranked = [handles[3], handles[0], handles[1], instruction].filter(
      (handle): handle is Handle => handle !== undefined,
    );
    // Room for the instruction and the two best identifiers, each section's first entry with its header; not beta_two.
    const [gamma, alpha] = ranked;
    const budget = entryCost(instruction) + entryCost(gamma!) + entryCost(alpha!) + 2 * GROUP_HEADER_TOKENS;
    const { kept, spilled } = fitHandleBudget(handles, budget, 'spill', { sessionId: 'f' }, { ranked });
    expect(kept.map((handle) => handle.text)).toEqual(['Never target eu-west-1.', 'gamma_three', 'alpha_one']);
    expect(spilled.map((handle) => handle.text)).toEqual(['beta_two']);
  });

  it('charges near-identical log lines and a relative path inside its absolute form as one entry', () => {
    const make = (text: string, kind: HandleKind, seq: number): Handle => ({
      kind,
      text,
      key: text,
      start: 0,
      end: text.length,
      spanId: `sha256:${seq}`,
      seq,
      role: 'tool',
      tokens: Math.ceil(text.length / 4),
    });
    const lines = Array.from({ length: 8 }, (_, index) =>
      make(`2026-11-12T10:0${index}:13Z ERROR payments worker lost its lease (attempt ${index})`, 'error', index),
    );
    const paths = [make('/home/u/app/lib/a.ex', 'path', 20), make('lib/a.ex', 'path', 21)];
    const one = fitHandleBudget([lines[0] as Handle, paths[0] as Handle], 1000, 'spill', { sessionId: 'n' }).kept;
    const costOfOne = one.reduce((sum, handle) => sum + handle.tokens + 2, 0) + 8;
    const { kept, spilled } = fitHandleBudget([...lines, ...paths], costOfOne + 6, 'spill', { sessionId: 'n' });
    expect(spilled).toEqual([]);
    expect(kept).toHaveLength(10);
  });
});

describe('the session ranking option', () => {
  async function indexKinds(ranking?: RankWeightsInput) {
    const ledger = createLedger({ store: createMemoryStore(), now: () => new Date('2026-11-12T10:00:00Z') });
    const session = await ledger.session('ranked', {
      window: { maxTokens: 1500, handleBudgetTokens: 40, summaryBudgetTokens: 100 },
      ...(ranking === undefined ? {} : { ranking }),
    });
    for (let index = 0; index < 120; index++)
      await session.append({
        role: 'user',
        content: `Step ${index}: check worker_pool_${index} on port ${40000 + index} and report back with details.`,
      });
    await session.render();
    const record = session.activeRecord();
    expect(record?.type).toBe('summary');
    return (record?.handles ?? []).filter((handle) => handle.kind === 'number' || handle.kind === 'identifier');
  }

  it('orders the index by the weights given: boosting numbers puts ports where pool names were', async () => {
    const plain = await indexKinds();
    const boosted = await indexKinds({ kind: { number: 50 } });
    const numbers = (handles: readonly Handle[]) => handles.filter((handle) => handle.kind === 'number').length;
    expect(numbers(boosted)).toBeGreaterThan(numbers(plain));
  });
});
