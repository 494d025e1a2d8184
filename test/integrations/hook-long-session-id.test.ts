/**
 * Session ids the hook accepts (up to 200 characters) whose URI-encoded file name would pass NAME_MAX (security
 * issue 34, item 11): 200 `%` encode to 600 bytes, 70 `é` to 420. Their ingest state and writer lock are stored
 * under a bounded, collision-free name (a readable head, `+`, the SHA-256 of the id), so they are ingested like
 * any other; short ids keep the names they always had, so existing users' state is still found.
 */
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runClaudeCodeHook } from '../../src/integrations/claude-code/hook.js';
import {
  MAX_SESSION_STEM_BYTES,
  projectLedgerPaths,
  sessionFileStem,
  sessionIngestFiles,
} from '../../src/integrations/claude-code/ledger-home.js';
import { claudeSession, jsonl } from './claude-code-fixture.js';

const directories: string[] = [];
afterEach(async () => {
  for (const directory of directories.splice(0)) await rm(directory, { recursive: true, force: true });
});

/** Bytes most file systems allow in one name. */
const NAME_MAX = 255;

describe('session ids whose encoded name passes NAME_MAX', () => {
  for (const [name, sessionId] of [
    ['200 percent signs', '%'.repeat(200)],
    ['70 e-acute', '\u00e9'.repeat(70)],
  ] as const)
    it(`${name}: the hook ingests the session, and the next call finds its state`, async () => {
      const root = await mkdtemp(join(tmpdir(), 'cl-long-id-'));
      directories.push(root);
      const project = join(root, 'project');
      const environment = { HOME: root, CONTEXT_LEDGER_HOME: join(root, 'ledger') };
      const fixture = claudeSession(sessionId, project);
      const transcript = join(root, 'transcript.jsonl');
      await writeFile(transcript, jsonl([fixture.user('deploy with port 7443'), fixture.assistant('noted')]));
      const input = { session_id: sessionId, transcript_path: transcript, cwd: project, hook_event_name: 'Stop' };

      const first = await runClaudeCodeHook(input, { environment });
      expect(first.ingest?.messages).toBe(2);
      const again = await runClaudeCodeHook(input, { environment });
      expect(again.ingest?.messages).toBe(0);

      const { ingestDirectory } = projectLedgerPaths(project, undefined, environment);
      const names = await readdir(ingestDirectory);
      expect(names).toEqual([`${sessionFileStem(sessionId)}.json`]);
      for (const file of names) expect(Buffer.byteLength(file)).toBeLessThanOrEqual(NAME_MAX);
      expect(Buffer.byteLength(encodeURIComponent(sessionId))).toBeGreaterThan(NAME_MAX);
    });

  it('short ids keep their encoded name; long ones get a bounded name that no other id shares', () => {
    for (const id of ['7f3c2a10-9a4e-4c1b-8d2f-3e5b6a7c8d90', 'a b/c', '%'.repeat(66)])
      expect(sessionFileStem(id)).toBe(encodeURIComponent(id));
    const long = 'x'.repeat(MAX_SESSION_STEM_BYTES);
    const stems = ['a', 'b', '\u00e9'].map((last) => sessionFileStem(long + last));
    expect(new Set(stems).size).toBe(3);
    for (const stem of [...stems, sessionFileStem('%'.repeat(200)), sessionFileStem('\u00e9'.repeat(70))]) {
      expect(Buffer.byteLength(stem)).toBeLessThanOrEqual(MAX_SESSION_STEM_BYTES);
      // `+` encodes as %2B: a hashed stem never equals the stem of a short id.
      expect(stem).toMatch(/^[^+]*\+[0-9a-f]{64}$/);
      expect(stem).not.toMatch(/%[0-9A-F]?\+/);
    }
    const { stateFile, lockFile } = sessionIngestFiles('/ingest', '%'.repeat(200));
    expect(lockFile).toBe(`${stateFile}.lock`);
    const longestName = `${lockFile.slice('/ingest/'.length)}.stale.4194304.${'f'.repeat(12)}`;
    expect(Buffer.byteLength(longestName)).toBeLessThanOrEqual(NAME_MAX);
  });
});
