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
});
