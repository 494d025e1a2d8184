// Appends batches and renders (which compacts) in a loop until killed, against the COMPILED
// store in dist/ (run `npm run build` first). Prints one line per acknowledged append:
//   ack <firstSeq> <lastSeq> <batch> <size>
// Usage: node append-loop.mjs '<json: {store, session, run, maxBatches?, contend?}>'
//   store: sqlite:PATH or postgres://…[?schema=…]; run: a tag making batch ids unique;
//   contend: on SequenceConflictError re-open the session and go on (prints "conflict <batch> <append|render>").
import { writeSync } from 'node:fs';
import process from 'node:process';
import { openStore } from '../../../dist/stores/store-spec.js';
import { LedgerSession } from '../../../dist/session/session.js';
import { createExtractiveSummarizer } from '../../../dist/summarizers/extractive.js';
import { WINDOW, batchMessages } from './batch-messages.mjs';

const config = JSON.parse(process.argv[2] ?? '{}');
const say = (line) => writeSync(1, line + '\n');

const store = await openStore(config.store);
// LedgerSession directly (not createLedger) so the worker never loads the o200k tokenizer:
// a fast start keeps 50 killed runs cheap. Same counter as createApproximateCounter().
const dependencies = {
  store,
  counter: { name: 'approx-4', count: (text) => Math.ceil(text.length / 4) },
  summarizer: createExtractiveSummarizer(),
};
const open = () => LedgerSession.open(config.session, dependencies, { window: WINDOW });
let session = await open();
say('ready');
const limit = config.maxBatches ?? Number.POSITIVE_INFINITY;
for (let batch = 0; batch < limit; batch += 1) {
  const id = `${config.run}.${batch}`;
  const size = 1 + ((batch * 7 + config.run.length) % 4);
  let stage = 'append';
  try {
    const written = await session.append(batchMessages(id, size));
    say(`ack ${written[0].seq} ${written[written.length - 1].seq} ${id} ${size}`);
    stage = 'render';
    await session.render();
  } catch (error) {
    // Two contenders compacting the same region compute the same content-addressed record id:
    // the second write is then refused as IMMUTABLE_SPAN (the id exists), not SEQUENCE_CONFLICT.
    const lost = error?.code === 'SEQUENCE_CONFLICT' || (stage === 'render' && error?.code === 'IMMUTABLE_SPAN');
    if (!config.contend || !lost) throw error;
    say(`conflict ${id} ${stage}`);
    session = await open();
  }
}
say('done');
await store.close();
