#!/usr/bin/env node
/**
 * Replay identity check: replays transcripts through `dist/` (`replayFile`, SQLite store in a temp
 * folder) at a few windows and prints one JSON line per (file, window) with a digest of the span ids
 * (by seq), the record ids and the final context text. Run it before and after a change to the
 * replay path and diff the outputs: they must be identical.
 *   node scripts/replay-identity.mjs FILE... [--max-tokens 4000,8000]
 */
import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { replayFile } from '../dist/cli/replay.js';
import { openStore } from '../dist/stores/store-spec.js';

const args = process.argv.slice(2);
const at = args.indexOf('--max-tokens');
const windows = at >= 0 ? (args.splice(at, 2)[1] ?? '').split(',').map(Number) : [4000, 8000];
/** JSON with object keys sorted, so a record read back from the store digests like the one built in memory. */
const canonical = (value) =>
  JSON.stringify(value, (_key, item) =>
    item && typeof item === 'object' && !Array.isArray(item)
      ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : item,
  );
const digest = (value) => createHash('sha256').update(canonical(value)).digest('hex').slice(0, 16);

const folder = await mkdtemp(join(tmpdir(), 'replay-identity-'));
try {
  for (const file of args) {
    for (const maxTokens of windows) {
      const database = join(folder, `${maxTokens}.db`);
      const outcome = await replayFile(file, { store: `sqlite:${database}`, maxTokens, json: true });
      // A long replay holds only its latest records in memory: the others are read back from the store.
      const session = outcome.session;
      const all = typeof session.loadRecords === 'function' ? await session.loadRecords() : session.records();
      const records = all.map((record) => ({ ...record, createdAt: undefined }));
      // Replay releases old spill checkpoints from memory too: the full index is read back from the store.
      const handles =
        typeof session.loadHandleIndex === 'function' ? await session.loadHandleIndex() : session.handleIndex();
      const sessionId = outcome.session.id;
      await outcome.close();
      const store = await openStore(`sqlite:${database}`);
      const occurrences = await store.occurrences(sessionId);
      const stored = await store.records(sessionId);
      await store.close();
      console.log(
        JSON.stringify({
          file,
          maxTokens,
          spans: occurrences.length,
          spanIds: digest(occurrences.map((o) => [o.seq, o.span.id, o.byteStart, o.byteEnd])),
          records: records.length,
          recordIds: digest(records.map((r) => r.id)),
          recordBodies: digest(records),
          storedRecordIds: digest(stored.map((r) => r.id)),
          handles: digest(handles),
          context: digest(outcome.context.text),
          contextTokens: outcome.context.tokens,
        }),
      );
      for (const suffix of ['', '-wal', '-shm']) await rm(database + suffix, { force: true });
    }
  }
} finally {
  await rm(folder, { recursive: true, force: true });
}
