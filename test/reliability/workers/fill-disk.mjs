// Appends large messages to a SQLite ledger until a write fails (run under `ulimit -f` so the
// file cannot grow: a disk-full simulation that exercises the real store), against the
// COMPILED code in dist/. Prints `ack <firstSeq> <lastSeq> <batch> <size>` per acknowledged
// append, then `error <json {code, name, message}>`, then `read <nextSeq>` if reads still work.
// Usage: node fill-disk.mjs '<json: {store, session}>'
import { writeSync } from 'node:fs';
import process from 'node:process';
import { openStore } from '../../../dist/stores/store-spec.js';
import { LedgerSession } from '../../../dist/session/session.js';
import { createExtractiveSummarizer } from '../../../dist/summarizers/extractive.js';
import { WINDOW, batchMessages } from './batch-messages.mjs';

const config = JSON.parse(process.argv[2] ?? '{}');
const say = (line) => writeSync(1, line + '\n');
const store = await openStore(config.store);
const dependencies = {
  store,
  counter: { name: 'approx-4', count: (text) => Math.ceil(text.length / 4) },
  summarizer: createExtractiveSummarizer(),
};
const session = await LedgerSession.open(config.session, dependencies, { window: { ...WINDOW, maxTokens: 100_000 } });
const padding = ' lorem-ipsum'.repeat(150);
for (let batch = 0; batch < 100_000; batch += 1) {
  const id = `fill.${batch}`;
  const messages = batchMessages(id, 4).map((message) => ({ ...message, content: message.content + padding }));
  try {
    const written = await session.append(messages);
    say(`ack ${written[0].seq} ${written[written.length - 1].seq} ${id} 4`);
  } catch (error) {
    say(`error ${JSON.stringify({ code: error?.code, name: error?.name, message: String(error?.message) })}`);
    break;
  }
}
say(`read ${await store.nextSeq(config.session)}`);
await store.close();
