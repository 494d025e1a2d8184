/**
 * The hook and the o200k rank file (issue 38, item 5: the cost of a `Stop`): the hook keeps stamps of the rank file it
 * checked in its ledger home, so the next call skips hashing the file's 4.6 MB; a rank file that is refused (damaged,
 * or built for another gpt-tokenizer) is named in the hook log, with what to do, on every call.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { runClaudeCodeHook } from '../../src/integrations/claude-code/hook.js';
import { rankFileBytes, rankFileRead, readRankFile } from '../../src/tokens/o200k-rank-file.js';
import { keepRankFileStamps, rankFileStampFolder } from '../../src/tokens/o200k-rank-stamp.js';
import { buildRankTable, loadRankList, rankListVersion } from '../../src/tokens/o200k-rank-table.js';
import { claudeSession, jsonl } from '../integrations/claude-code-fixture.js';

const directories: string[] = [];
afterEach(async () => {
  keepRankFileStamps(undefined);
  for (const directory of directories.splice(0)) await rm(directory, { recursive: true, force: true });
});

/** A project with a two-message transcript, and the hook's `Stop` input and environment for it. */
async function project() {
  const root = await mkdtemp(join(tmpdir(), 'cl-hook-rank-'));
  directories.push(root);
  const cwd = join(root, 'project');
  const sessionId = '7f3c2a10-9a4e-4c1b-8d2f-3e5b6a7c8d90';
  const fixture = claudeSession(sessionId, cwd);
  const transcript = join(root, 'transcript.jsonl');
  await writeFile(transcript, jsonl([fixture.user('deploy with port 7443'), fixture.assistant('noted')]));
  const home = join(root, 'ledger');
  return {
    root,
    home,
    input: { session_id: sessionId, transcript_path: transcript, cwd, hook_event_name: 'Stop' },
    environment: { HOME: root, CONTEXT_LEDGER_HOME: home },
  };
}

describe('the hook and the o200k rank file', () => {
  it('keeps stamps of checked rank files under its ledger home', async () => {
    const { home, input, environment } = await project();
    const outcome = await runClaudeCodeHook(input, { environment });
    expect(outcome.ingest?.messages).toBe(2);
    expect(rankFileStampFolder()).toBe(join(home, 'cache'));
  });

  it('names a refused rank file in the hook log, with what to do', async () => {
    const { root, input, environment } = await project();
    const version = rankListVersion();
    const damaged = Buffer.from(rankFileBytes(buildRankTable(loadRankList()), version));
    damaged[damaged.length - 1] = (damaged[damaged.length - 1] ?? 0) ^ 1;
    const file = join(root, 'damaged-ranks.bin');
    await writeFile(file, damaged);
    expect(readRankFile(version, pathToFileURL(file))).toBeUndefined();
    expect(rankFileRead()?.outcome).toBe('refused');

    const lines: string[] = [];
    const outcome = await runClaudeCodeHook(input, { environment, log: (line) => lines.push(line) });
    expect(outcome.ingest?.messages).toBe(2);
    expect(lines).toEqual([
      expect.stringMatching(
        /^the o200k rank file .*damaged-ranks\.bin was not used: its SHA-256 does not match its contents \(the file is damaged\); .*reinstall or rebuild context-ledger/,
      ),
    ]);
  });

  it('logs nothing about a rank file that was used', async () => {
    const { root, input, environment } = await project();
    const version = rankListVersion();
    const file = join(root, 'ranks.bin');
    await writeFile(file, rankFileBytes(buildRankTable(loadRankList()), version));
    expect(readRankFile(version, pathToFileURL(file))).toBeDefined();
    const lines: string[] = [];
    await runClaudeCodeHook(input, { environment, log: (line) => lines.push(line) });
    expect(lines).toEqual([]);
  });
});
