#!/usr/bin/env node
/**
 * Collect the mini-swe-agent trajectories of the same public run as ../shared/data/swe-agent that the data set left
 * out (the run has 100, the data set holds 40), for the issues' re-checks on data not in ../shared/data. Reads a
 * local clone that has the run's pull request fetched and writes OUT/swe-agent/mini-swe-agent-outside.jsonl in the
 * data set's line format ({instance_id, resolved, exit_status, submission, messages}; each message's role, content,
 * tool calls as {id, name, arguments} and tool_call_id; the run's extra per-message fields dropped). Nothing is
 * written into the repository.
 *
 *   git clone https://github.com/SWE-agent/mini-swe-agent /tmp/mini && git -C /tmp/mini fetch origin pull/816/head:pr816
 *   node scripts/outside-swe-agent.mjs --repo /tmp/mini --ref pr816 --known ../shared/data/swe-agent/mini-swe-agent-deepseek-dev.jsonl --out /tmp/outside-swe
 *   node <bench build>/bench/run.js quality-swe-agent --data /tmp/outside-swe --out /tmp/outside-results
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    repo: { type: 'string' },
    ref: { type: 'string', default: 'refs/pull/816/head' },
    folder: { type: 'string', default: 'output/deepseek_chat_test_1-100' },
    known: { type: 'string' },
    out: { type: 'string' },
  },
});
if (!values.repo || !values.out) {
  console.error('usage: outside-swe-agent.mjs --repo GIT_DIR --out DIR [--ref REF] [--known DATA.jsonl] [--folder F]');
  process.exit(2);
}
const git = (...args) =>
  execFileSync('git', ['-C', values.repo, ...args], {
    encoding: 'utf8',
    maxBuffer: 1 << 30,
    stdio: ['ignore', 'pipe', 'ignore'],
  });

const known = new Set(
  values.known
    ? readFileSync(values.known, 'utf8')
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line).instance_id)
    : [],
);

/** A message in the data set's shape. */
function message(raw) {
  const out = { role: raw.role, content: typeof raw.content === 'string' ? raw.content : JSON.stringify(raw.content) };
  if (Array.isArray(raw.tool_calls) && raw.tool_calls.length > 0)
    out.tool_calls = raw.tool_calls.map((call) => ({
      id: call.id,
      name: call.function?.name ?? call.name,
      arguments: call.function?.arguments ?? call.arguments,
    }));
  if (typeof raw.tool_call_id === 'string') out.tool_call_id = raw.tool_call_id;
  return out;
}

const lines = [];
let missingObjects = 0;
for (const row of git('ls-tree', '-r', values.ref, '--', values.folder).split('\n')) {
  const match = /^\d+ blob ([0-9a-f]+)\t(.*\.traj\.json)$/.exec(row);
  if (!match) continue;
  let trajectory;
  try {
    trajectory = JSON.parse(git('cat-file', '-p', match[1]));
  } catch {
    missingObjects++;
    continue;
  }
  if (known.has(trajectory.instance_id)) continue;
  lines.push(
    JSON.stringify({
      instance_id: trajectory.instance_id,
      exit_status: trajectory.info?.exit_status,
      submission: trajectory.info?.submission,
      messages: trajectory.messages.map(message),
    }),
  );
}
const folder = join(values.out, 'swe-agent');
mkdirSync(folder, { recursive: true });
const file = join(folder, 'mini-swe-agent-outside.jsonl');
writeFileSync(file, `${lines.join('\n')}\n`);
console.log(
  `${lines.length} trajectories written to ${file} (${known.size} known instance ids left out` +
    (missingObjects ? `, ${missingObjects} files missing from the clone` : '') +
    ')',
);
