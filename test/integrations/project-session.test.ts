/**
 * The project → latest session file the hooks keep for `serve`: written when the session (or its transcript or
 * store) changes, left as it is by the other hook calls of the same conversation (each would rewrite and fsync it).
 */
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readProjectSession, recordProjectSession } from '../../src/integrations/claude-code/project-session.js';

let root: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'cl-project-session-'));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('recordProjectSession', () => {
  it('leaves the file alone for the same session, and writes it when the session changes', async () => {
    const file = join(root, 'projects', 'p.session.json');
    const record = {
      cwd: '/work/app',
      sessionId: 's-1',
      transcriptPath: '/home/me/.claude/projects/-work-app/s-1.jsonl',
      store: 'sqlite:/data/p.db',
      updatedAt: '2026-12-01T10:00:00.000Z',
    };
    await recordProjectSession(file, record);
    const written = await stat(file);
    await recordProjectSession(file, { ...record, updatedAt: '2026-12-01T10:05:00.000Z' });
    // The same inode: not replaced (every write is a new file renamed into place).
    expect((await stat(file)).ino).toBe(written.ino);
    expect(await readProjectSession(file)).toEqual(record);

    const next = { ...record, sessionId: 's-2', transcriptPath: record.transcriptPath.replace('s-1', 's-2') };
    await recordProjectSession(file, { ...next, updatedAt: '2026-12-01T11:00:00.000Z' });
    expect(await readProjectSession(file)).toMatchObject({ sessionId: 's-2', updatedAt: '2026-12-01T11:00:00.000Z' });
    await recordProjectSession(file, { ...next, store: 'sqlite:/elsewhere.db', updatedAt: '2026-12-01T12:00:00.000Z' });
    expect(await readProjectSession(file)).toMatchObject({ store: 'sqlite:/elsewhere.db' });
  });
});
