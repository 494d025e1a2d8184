import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ingestClaudeCodeTranscript } from '../../src/integrations/claude-code/transcript-ingest.js';
import { createLedger } from '../../src/session/ledger.js';
import { createSqliteStore } from '../../src/stores/sqlite/sqlite-store.js';
import { claudeSession, jsonl } from './claude-code-fixture.js';

const directories: string[] = [];
afterEach(async () => {
  for (const directory of directories.splice(0)) await rm(directory, { recursive: true, force: true });
});

async function setup() {
  const directory = await mkdtemp(join(tmpdir(), 'cl-ingest-'));
  directories.push(directory);
  const transcript = join(directory, 's.jsonl');
  const fixture = claudeSession('s', directory);
  const records = Array.from({ length: 12 }, (_, index) =>
    index % 2 === 0 ? fixture.user(`step ${index}: check /srv/app/${index}.log`) : fixture.assistant(`done ${index}`),
  );
  await writeFile(transcript, jsonl(records));
  const open = () => createLedger({ store: createSqliteStore({ path: join(directory, 'ledger.db') }) });
  return { directory, transcript, open, stateFile: join(directory, 'state.json') };
}

describe('ingestClaudeCodeTranscript', () => {
  it('two concurrent ingests of one session append every message once (lock file)', async () => {
    const { transcript, open, stateFile } = await setup();
    const [first, second] = [open(), open()];
    try {
      const results = await Promise.all(
        [first, second].map((ledger) =>
          ingestClaudeCodeTranscript({ ledger, sessionId: 's', transcriptPath: transcript, stateFile }),
        ),
      );
      expect(results.map((result) => result.messages).sort()).toEqual([0, 12]);
      expect(await first.store.nextSeq('s')).toBe(12);
    } finally {
      await first.close();
      await second.close();
    }
  });

  it('a state that disagrees with the store is not trusted: the transcript is re-read and nothing is appended twice', async () => {
    const { transcript, open, stateFile } = await setup();
    const ledger = open();
    try {
      await ingestClaudeCodeTranscript({ ledger, sessionId: 's', transcriptPath: transcript, stateFile });
      const state = JSON.parse(await readFile(stateFile, 'utf8')) as Record<string, unknown>;
      await writeFile(stateFile, JSON.stringify({ ...state, byteOffset: 0, spans: 3, lastSpanId: 'sha256:stale' }));
      const lines: string[] = [];
      const again = await ingestClaudeCodeTranscript({
        ledger,
        sessionId: 's',
        transcriptPath: transcript,
        stateFile,
        log: (line) => lines.push(line),
      });
      expect(again).toMatchObject({ messages: 0, recovered: true, skipped: 12 });
      expect(await ledger.store.nextSeq('s')).toBe(12);
      expect(lines.join('\n')).toMatch(/disagrees with/);
    } finally {
      await ledger.close();
    }
  });

  it("records each of Codex's compactions though their summary text is empty, and none twice on a re-read", async () => {
    const directory = await mkdtemp(join(tmpdir(), 'cl-ingest-codex-'));
    directories.push(directory);
    const rollout = join(directory, 'rollout.jsonl');
    let second = 0;
    const line = (type: string, payload: Record<string, unknown>) =>
      JSON.stringify({ timestamp: new Date(Date.UTC(2026, 10, 2, 9, 0, ++second)).toISOString(), type, payload }) +
      '\n';
    const user = (text: string) =>
      line('response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text }] });
    const ledger = createLedger({ store: createSqliteStore({ path: join(directory, 'ledger.db') }) });
    const stateFile = join(directory, 'state.json');
    const ingest = () =>
      ingestClaudeCodeTranscript({ ledger, sessionId: 'c', transcriptPath: rollout, stateFile, format: 'codex' });
    const externals = async () => (await ledger.store.records('c')).filter((record) => record.type === 'external');
    try {
      await writeFile(rollout, line('session_meta', { id: 'c', cli_version: '0.145.0' }) + user('fix /srv/a.log'));
      await ingest();
      await writeFile(rollout, (await readFile(rollout, 'utf8')) + line('compacted', { message: '' }) + user('next'));
      expect((await ingest()).compactions).toBe(1);
      await writeFile(rollout, (await readFile(rollout, 'utf8')) + line('compacted', { message: '' }) + user('more'));
      expect((await ingest()).compactions).toBe(1);
      expect(await externals()).toHaveLength(2);
      // A lost state: the rollout is read again from the start, and both compactions are found already recorded.
      await rm(stateFile);
      const again = await ingest();
      expect(again).toMatchObject({ recovered: true, compactions: 0, messages: 0 });
      expect(await externals()).toHaveLength(2);
    } finally {
      await ledger.close();
    }
  });
});
