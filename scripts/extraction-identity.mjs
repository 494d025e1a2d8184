#!/usr/bin/env node
/**
 * Extraction identity check: runs `extractHandles` (from `dist/`) over every message text (content and
 * tool-call arguments) of the data sets under DATA (default /work/shared/data: claude-code, swe-agent,
 * locomo), once plain and once as tool output, and prints one JSON line per data set and a total with
 * a sha256 of every handle list (all fields). Run it before and after a change to `src/handles/` and
 * compare the hashes: they must be identical.
 *   node scripts/extraction-identity.mjs [DATA]
 */
import { createHash } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { extractHandles } from '../dist/handles/extract.js';
import { readEvents } from '../dist/importers/registry.js';

const dataDir = process.argv[2] ?? '/work/shared/data';
const SETS = [
  ['claude-code', 'claude-code', '.jsonl'],
  ['swe-agent', 'swe-agent', '.jsonl'],
  ['locomo', 'locomo', '.json'],
];
const MODES = [{}, { toolOutput: true }];

const total = createHash('sha256');
let totalTexts = 0;
let totalHandles = 0;
for (const [name, format, suffix] of SETS) {
  const folder = join(dataDir, name);
  const files = (await readdir(folder)).filter((file) => file.endsWith(suffix)).sort();
  const hash = createHash('sha256');
  let texts = 0;
  let handles = 0;
  for (const file of files) {
    for await (const event of readEvents(join(folder, file), { format, skipInvalid: true })) {
      if (event.type !== 'message') continue;
      const { message } = event;
      for (const text of [message.content, ...(message.toolCalls ?? []).map((call) => call.arguments)]) {
        if (text.length === 0) continue;
        texts++;
        for (const options of MODES) {
          const found = extractHandles(text, options);
          handles += found.length;
          const line = JSON.stringify(found) + '\n';
          hash.update(line);
          total.update(line);
        }
      }
    }
  }
  totalTexts += texts;
  totalHandles += handles;
  console.log(JSON.stringify({ set: name, files: files.length, texts, handles, sha256: hash.digest('hex') }));
}
console.log(JSON.stringify({ set: 'total', texts: totalTexts, handles: totalHandles, sha256: total.digest('hex') }));
