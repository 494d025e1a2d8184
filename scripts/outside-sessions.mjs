#!/usr/bin/env node
/**
 * Collect real agent sessions that are NOT in ../shared/data, for the re-checks the issues ask for ("re-checked on
 * sessions that are not in ../shared/data"). The `entire/` data set was taken from a few checkpoint transcripts of
 * public repositories that commit their agents' sessions on a branch (`entire/checkpoints/v1`); the same branches
 * hold many more sessions. This script reads such a branch from a local clone and writes every session that has an
 * agent compaction and whose session id is not among the data set's, one file per session (the longest copy when a
 * session was checkpointed several times), under OUT/entire/ — the layout `hook-context-entire --data OUT` reads.
 * Nothing is written into the repository: the sessions stay where you put them.
 *
 *   git clone --branch entire/checkpoints/v1 https://github.com/entireio/cli /tmp/entire-cli
 *   node scripts/outside-sessions.mjs --repo /tmp/entire-cli --prefix entireio-cli__ --known ../shared/data/entire --out /tmp/outside-data
 *   git clone --branch entire/checkpoints/v1 https://github.com/EntityProcess/agentv /tmp/agentv
 *   node scripts/outside-sessions.mjs --repo /tmp/agentv --prefix entityprocess-agentv-codex__ --known ../shared/data/entire --out /tmp/outside-data
 *   node <bench build>/bench/run.js hook-context-entire --data /tmp/outside-data --out /tmp/outside-results
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    repo: { type: 'string' },
    branch: { type: 'string', default: 'entire/checkpoints/v1' },
    prefix: { type: 'string', default: '' },
    known: { type: 'string' },
    out: { type: 'string' },
  },
});
if (!values.repo || !values.out) {
  console.error(
    'usage: outside-sessions.mjs --repo GIT_DIR --out DIR [--known DATA/entire] [--prefix NAME__] [--branch B]',
  );
  process.exit(2);
}

/** The session id of a Claude Code transcript (`sessionId`) or a Codex rollout (`session_meta.payload.id`). */
function sessionId(text) {
  for (const line of text.split('\n')) {
    if (!line.startsWith('{')) continue;
    let record;
    try {
      record = JSON.parse(line);
    } catch {
      continue;
    }
    if (typeof record.sessionId === 'string') return record.sessionId;
    if (record.type === 'session_meta' && typeof record.payload?.id === 'string') return record.payload.id;
  }
  return undefined;
}

/** Whether the transcript holds an agent compaction: Claude Code's boundary or Codex's `compacted` item. */
function hasCompaction(text) {
  return /"subtype":\s*"compact_boundary"|"type":\s*"compacted"/.test(text);
}

const git = (...args) =>
  execFileSync('git', ['-C', values.repo, ...args], {
    encoding: 'utf8',
    maxBuffer: 1 << 30,
    stdio: ['ignore', 'pipe', 'ignore'],
  });

const known = new Set();
if (values.known) {
  for (const name of readdirSync(values.known).filter((file) => file.endsWith('.jsonl'))) {
    const id = sessionId(readFileSync(join(values.known, name), 'utf8'));
    if (id) known.add(id);
  }
}

const best = new Map();
let missingObjects = 0;
for (const row of git('ls-tree', '-r', values.branch).split('\n')) {
  const match = /^\d+ blob ([0-9a-f]+)\t(.*\/full\.jsonl)$/.exec(row);
  if (!match) continue;
  let text;
  try {
    text = git('cat-file', '-p', match[1]);
  } catch {
    missingObjects++;
    continue;
  }
  if (!hasCompaction(text)) continue;
  const id = sessionId(text);
  if (!id || known.has(id)) continue;
  const previous = best.get(id);
  if (!previous || previous.text.length < text.length) best.set(id, { path: match[2], text });
}

const folder = join(values.out, 'entire');
mkdirSync(folder, { recursive: true });
for (const { path, text } of best.values())
  writeFileSync(join(folder, values.prefix + path.replaceAll('/', '_')), text);
console.log(
  `${best.size} sessions with a compaction written to ${folder} (${known.size} known session ids left out` +
    (missingObjects ? `, ${missingObjects} objects missing from the clone` : '') +
    ')',
);
