/**
 * A new user's first week (issue 38, item 6): every error is found before the heavy work, names the problem and the
 * fix, and exits 2 as the README documents. Each test failed on the code before (b7e8a23). Runs dist/ (build first).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { CLI, runCli as cli } from './run-cli.js';

const FIXTURES = join(process.cwd(), 'test/importers/fixtures');
const CLAUDE_CODE = join(FIXTURES, 'claude-code-session.jsonl');
const OPENAI_JSONL = join(FIXTURES, 'openai-messages.jsonl');
const TRAJECTORIES = join(FIXTURES, 'swe-agent-trajectories.jsonl');

let directory = '';

beforeAll(async () => {
  expect(existsSync(CLI), 'run npx tsc -p tsconfig.build.json first').toBe(true);
  directory = await mkdtemp(join(tmpdir(), 'cl-first-week-'));
});

describe('output paths are checked before the audit runs', () => {
  it('audit --html DIR: exit 2 naming the directory and a file to give, no stack trace, no audit', async () => {
    const folder = join(directory, 'reports');
    await mkdir(folder);
    const result = await cli(['audit', CLAUDE_CODE, '--html', folder]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`INVALID_INPUT: --html ${folder}: is a directory`);
    expect(result.stderr).toContain(`--html ${join(folder, 'audit.html')}`);
    expect(result.stderr).not.toMatch(/EISDIR|at .*\.js:\d+/);
    // Nothing was audited: no progress line, no report.
    expect(result.stderr).not.toContain('audit claude-code-session.jsonl');
    expect(result.stdout).toBe('');
  });

  it('audit --html in a folder that does not exist: exit 2 naming the folder', async () => {
    const missing = join(directory, 'no-such-folder', 'audit.html');
    const result = await cli(['audit', CLAUDE_CODE, '--html', missing, '--quiet']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`the folder ${join(directory, 'no-such-folder')} does not exist`);
    expect(result.stdout).toBe('');
  });
});

describe('a --format that does not match the file', () => {
  it('replay FILE --format codex on a Claude Code file: exit 2, names both formats, stores nothing', async () => {
    const database = join(directory, 'mismatch.db');
    const result = await cli(['replay', CLAUDE_CODE, '--format', 'codex', '--store', `sqlite:${database}`]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      `${CLAUDE_CODE}: --format codex does not match this file, which looks like a claude-code transcript`,
    );
    expect(result.stderr).toContain('--format claude-code');
    expect(existsSync(database)).toBe(false);
  });

  it('replay of an OpenAI JSONL file as claude-code: says the format does not match, not only a field error', async () => {
    const result = await cli(['replay', OPENAI_JSONL, '--format', 'claude-code', '--store', 'memory:']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--format claude-code does not match this file');
  });

  it('audit FILE --format locomo on a Claude Code file: a format mismatch, not "not valid JSON"', async () => {
    const result = await cli(['audit', CLAUDE_CODE, '--format', 'locomo', '--quiet']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--format locomo does not match this file, which looks like a claude-code');
    expect(result.stderr).not.toContain('not valid JSON');
  });

  it('a matching --format still replays', async () => {
    const result = await cli(['replay', CLAUDE_CODE, '--format', 'claude-code', '--store', 'memory:', '--quiet']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^session claude-code-session: \d+ spans/);
  });
});

describe('commands that use a ledger never create one at a mistyped path', () => {
  it.each([
    ['serve', ['serve', '--stdio']],
    ['describe', ['describe', 'rec_1', '--session', 's']],
    ['expand', ['expand', '--from-seq', '0', '--session', 's']],
    ['grep', ['grep', 'x', '--session', 's']],
  ])('%s --store sqlite:typo.db: exit 2 naming the path, and no file is created', async (_name, args) => {
    const typo = join(directory, `typo-${args[0] ?? ''}.db`);
    const result = await cli([...args, '--store', `sqlite:${typo}`]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`NOT_FOUND: --store sqlite:${typo}: no ledger file at ${typo}`);
    expect(result.stderr).toContain('Run replay first, or check the path');
    expect(existsSync(typo)).toBe(false);
  });

  it('serve without --store (as install registers it) still starts the default ledger', async () => {
    const project = join(directory, 'fresh-project');
    await mkdir(project);
    const served = spawnSync(process.execPath, [CLI, 'serve', '--stdio'], {
      cwd: project,
      input: '',
      encoding: 'utf8',
    });
    expect(served.status, served.stderr).toBe(0);
    expect(existsSync(join(project, '.context-ledger', 'ledger.db'))).toBe(true);
  });

  it('serve says how to start an empty ledger on purpose', async () => {
    const typo = join(directory, 'typo-hint.db');
    const result = await cli(['serve', '--store', `sqlite:${typo}`]);
    expect(result.stderr).toContain('pass --create');
  });
});

describe('a mistyped --store spec is refused before replay reads its input', () => {
  it.each([
    ['nosuch:ledger', 'is not a store spec: use sqlite:PATH'],
    ['sqlite:', 'give a file path after "sqlite:"'],
    ['sqlite:ledger.db?durability=fast', '"fast" is not a durability'],
  ])('--store %s: exit 2 naming the spec, not the file', async (spec, message) => {
    // The file does not exist: an error about it means the input was read first.
    const result = await cli(['replay', join(directory, 'not-yet-written.jsonl'), '--store', spec]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`option '--store <spec>' argument '${spec}' is invalid`);
    expect(result.stderr).toContain(message);
    expect(result.stderr).not.toContain('cannot read the transcript');
  });
});

describe('option errors exit 2, as the README says', () => {
  it.each([
    ['an unknown option', ['replay', 'x.jsonl', '--bogus'], "unknown option '--bogus'"],
    ['a missing argument', ['replay'], "missing required argument 'file'"],
    ['an invalid choice', ['replay', 'x.jsonl', '--format', 'zzz'], "argument 'zzz' is invalid"],
    ['an invalid number', ['audit', 'x.jsonl', '--max-tokens', '-3'], '--max-tokens must be a positive integer'],
  ])('%s', async (_name, args, message) => {
    const result = await cli(args);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
    expect(result.stderr).toContain('--help');
  });

  it('--help and --version still exit 0; a hook keeps a non-blocking exit code', async () => {
    expect((await cli(['--version'])).code).toBe(0);
    expect((await cli(['replay', '--help'])).code).toBe(0);
    // For Claude Code, exit 2 from a hook blocks the agent: a hook's option error must not.
    expect((await cli(['hook', 'claude-code', '--bogus'])).code).not.toBe(2);
  });

  it('the README documents exit code 2 for bad input', async () => {
    const readme = await readFile(join(process.cwd(), 'README.md'), 'utf8');
    expect(readme).toMatch(/wrong option[^.]*exit[^.]*code 2|exit with code 2/);
  });
});

describe('--help has examples', () => {
  it.each(['replay', 'audit', 'recall', 'serve', 'install', 'status', 'demo', 'migrate', 'expand', 'grep'])(
    '%s --help ends with examples',
    async (command) => {
      const result = await cli([command, '--help']);
      expect(result.code).toBe(0);
      expect(result.stdout).toContain('Examples:');
      expect(result.stdout).toMatch(new RegExp(`^ {2}context-ledger ${command} `, 'm'));
    },
  );
});

describe('--quiet and --json print no progress', () => {
  it('replay --quiet prints no progress; audit --json prints the document and nothing on stderr', async () => {
    const quiet = await cli(['replay', CLAUDE_CODE, '--store', 'memory:', '--quiet']);
    expect(quiet.code, quiet.stderr).toBe(0);
    expect(quiet.stderr).toBe('');
    const audit = await cli(['audit', CLAUDE_CODE, '--json']);
    expect(audit.code, audit.stderr).toBe(0);
    expect(audit.stderr).toBe('');
    expect(() => JSON.parse(audit.stdout) as unknown).not.toThrow();
  });
});

describe('a file of several conversations', () => {
  it('replay says how many there are and how to pick another', async () => {
    const result = await cli(['replay', TRAJECTORIES, '--store', 'memory:', '--quiet']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('holds 2 conversations (ids: acme__widgets-101, acme__gears-7)');
    expect(result.stderr).toContain('--trajectory N (1-2)');
  });

  it('--trajectory N or an id replays that one, into a session named after it', async () => {
    for (const pick of ['2', 'acme__gears-7']) {
      const result = await cli(['replay', TRAJECTORIES, '--store', 'memory:', '--quiet', '--trajectory', pick]);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toMatch(/^session acme__gears-7: 4 spans/);
      expect(result.stderr).toBe('');
    }
  });

  it('--trajectory naming no conversation: exit 2 saying how many there are', async () => {
    const result = await cli(['replay', TRAJECTORIES, '--store', 'memory:', '--trajectory', '3']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('holds 2 conversations');
    expect(result.stderr).toContain('Give a number from 1 to 2');
  });
});

describe('user-facing errors say nothing meant for the tests', () => {
  it('no source file under src/ tells the user "(for the tests: …)"', async () => {
    const { UNREACHABLE_ADVICE } = await import('../../src/stores/postgres/driver-errors.js');
    expect(UNREACHABLE_ADVICE).not.toContain('CONTEXT_LEDGER_PG_URL');
    expect(UNREACHABLE_ADVICE).not.toContain('for the tests');
  });
});

describe('gaps name an empty range in words', () => {
  it('a record summarizing history from before the ledger began is not "seq 0--1 (bytes 0-0)"', async () => {
    const [{ createMemoryStore }, { createLedger }, { gapView }] = await Promise.all([
      import('../../src/stores/memory/memory-store.js'),
      import('../../src/session/ledger.js'),
      import('../../src/integrations/views.js'),
    ]);
    const session = await createLedger({ store: createMemoryStore() }).session('continued');
    await session.importExternalSummary({
      summary: 'The user deployed to eu-west-2b and asked to keep PAY-4403 open.',
      summarizer: { name: 'claude-code', version: 'unknown' },
    });
    const [gap] = session.gaps();
    expect(gap?.droppedRange.toSeq).toBeLessThan(gap?.droppedRange.fromSeq ?? 0);
    const view = gapView(gap!);
    expect(view.droppedRange).not.toMatch(/--1|bytes 0-0/);
    expect(view.droppedRange).toContain('history from before this ledger began');
    expect(view.whatToDo).not.toMatch(/seq 0--1/);
  });

  it('says "not from memory" once, and adds it to a reread that does not say it', async () => {
    const { gapView } = await import('../../src/integrations/views.js');
    const gap = {
      recordId: 'rec-1',
      type: 'summary' as const,
      depth: 1,
      droppedRange: { fromSeq: 3, toSeq: 9, byteStart: 10, byteEnd: 900 },
      originalsStored: true,
      reasons: [],
      reread: 'read them with expand on record rec-1, or ask the user; do not reconstruct the detail from memory',
    };
    expect(gapView(gap).whatToDo.match(/from memory/gi)).toHaveLength(1);
    const bare = gapView({ ...gap, reread: 're-read the source transcript' }).whatToDo;
    expect(bare).toBe('Re-read the source transcript. Do not fill this detail in from memory.');
  });

  it('a record over messages keeps its seq and byte range', async () => {
    const { droppedRangeWords } = await import('../../src/text/range-wording.js');
    expect(droppedRangeWords({ fromSeq: 3, toSeq: 41, byteStart: 120, byteEnd: 18233 })).toBe(
      'seq 3-41 (bytes 120-18233)',
    );
    expect(droppedRangeWords({ fromSeq: 7, toSeq: 6, byteStart: 0, byteEnd: 0 })).toContain('before seq 7');
  });
});

describe('writing the report fails cleanly', () => {
  it('an --html file that cannot be written is refused before the audit', async () => {
    if (process.getuid?.() === 0) return; // root writes any file
    const locked = join(directory, 'locked.html');
    await writeFile(locked, '', { mode: 0o444 });
    const result = await cli(['audit', CLAUDE_CODE, '--html', locked, '--quiet']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('cannot be written');
  });
});

describe("audit's ETA", () => {
  it('holds from the end of the read on (phase timings of a 2.8 MB Claude Code session)', async () => {
    const [{ auditFileShare }, { estimateRemaining }] = await Promise.all([
      import('../../src/cli/audit.js'),
      import('../../src/cli/progress.js'),
    ]);
    // Measured (ms from start): read done at 189, replay done at 1648, the run done at 2567.
    const total = 2567;
    for (const [phase, at] of [
      ['reading', 189],
      ['replaying', 1648],
    ] as const) {
      const eta = estimateRemaining(at * 1000, auditFileShare(phase, 1, 1) * 1000, 1000) ?? 0;
      const left = (total - at) * 1000;
      expect(eta / left, `${phase}: ETA ${eta} for ${left} left`).toBeGreaterThan(0.5);
      expect(eta / left).toBeLessThan(2);
    }
  });
});
