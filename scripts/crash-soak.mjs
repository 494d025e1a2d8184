#!/usr/bin/env node
// Long crash soak (not part of the tests): kills append/render workers with SIGKILL at random
// moments for a while, checking after every kill that the ledger is whole. Uses dist/ (run
// `npm run build` first).
// Usage: node scripts/crash-soak.mjs [--store sqlite:/tmp/soak.db | postgres://…?schema=soak]
//                                    [--minutes 10] [--parallel 4] [--max-delay-ms 500]
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import process from 'node:process';
import { setTimeout } from 'node:timers';
import { openStore } from '../dist/stores/store-spec.js';

const argv = process.argv.slice(2);
const option = (flag, fallback) => (argv.includes(flag) ? argv[argv.indexOf(flag) + 1] : fallback);
const spec = option('--store', `sqlite:/tmp/context-ledger-soak-${process.pid}.db`);
const deadline = Date.now() + Number(option('--minutes', '10')) * 60_000;
const parallel = Number(option('--parallel', '4'));
const maxDelayMs = Number(option('--max-delay-ms', '500'));
const worker = join(import.meta.dirname, '../test/reliability/workers/append-loop.mjs');
const log = (line) => process.stderr.write(line + '\n');
const parse = (text) => /^batch (\S+) part (\d+)\/(\d+):/.exec(text);

function run(session, tag) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [worker, JSON.stringify({ store: spec, session, run: tag })], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const acked = [];
    let armed = false;
    child.stdout.setEncoding('utf8').on('data', (chunk) => {
      for (const line of chunk.split('\n')) if (line.startsWith('ack ')) acked.push(Number(line.split(' ')[2]));
      if (!armed && acked.length > 0) {
        armed = true;
        setTimeout(() => child.kill('SIGKILL'), Math.random() * maxDelayMs);
      }
    });
    child.on('close', (code, signal) => resolve({ acked, code, signal }));
  });
}

async function check(session, lastAcked) {
  const store = await openStore(spec);
  try {
    const occurrences = await store.occurrences(session);
    const problems = [];
    occurrences.forEach((occurrence, index) => occurrence.seq !== index && problems.push(`seq gap at ${index}`));
    if (lastAcked >= occurrences.length)
      problems.push(`acknowledged seq ${lastAcked} lost (only ${occurrences.length} stored)`);
    const batches = new Map();
    for (const occurrence of occurrences) {
      const match = parse(occurrence.span.text);
      if (!match) problems.push(`seq ${occurrence.seq} is not a worker message`);
      else batches.set(match[1], { seen: (batches.get(match[1])?.seen ?? 0) + 1, size: Number(match[3]) });
    }
    for (const [batch, { seen, size }] of batches)
      if (seen !== size) problems.push(`batch ${batch} half-written (${seen}/${size})`);
    const records = await store.records(session);
    for (const record of records)
      if (record.checkpointId && !records.some((other) => other.id === record.checkpointId))
        problems.push(`record ${record.id} lost its checkpoint`);
    return { problems, spans: occurrences.length, records: records.length };
  } finally {
    await store.close();
  }
}

let kills = 0;
const lastAcked = new Map();
for (let round = 0; Date.now() < deadline; round += 1) {
  const sessions = Array.from({ length: parallel }, (_, slot) => `soak-${slot}`);
  const outcomes = await Promise.all(sessions.map((session, slot) => run(session, `q${round}s${slot}`)));
  outcomes.forEach((outcome, slot) => {
    if (outcome.signal === 'SIGKILL') kills += 1;
    else log(`worker ${slot} ended on its own (code ${outcome.code})`);
    if (outcome.acked.length > 0)
      lastAcked.set(sessions[slot], Math.max(lastAcked.get(sessions[slot]) ?? -1, ...outcome.acked));
  });
  for (const session of sessions) {
    const result = await check(session, lastAcked.get(session) ?? -1);
    if (result.problems.length > 0) {
      log(`FAILED after ${kills} kills, session ${session}:\n  ${result.problems.join('\n  ')}`);
      process.exit(1);
    }
  }
  if (round % 10 === 0) log(`[crash-soak] ${kills} kills, all sessions whole`);
}
log(`[crash-soak] done: ${kills} kills, no loss, no half-written batch or record`);
