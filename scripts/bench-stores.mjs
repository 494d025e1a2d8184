#!/usr/bin/env node
// Compiles bench/stores.ts (and the store code it imports) to dist/bench-stores/ and runs it.
// Usage: node scripts/bench-stores.mjs [--quick] [--sizes 10000,100000] [--backends memory,sqlite,postgres]
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import process from 'node:process';
import { pathToFileURL } from 'node:url';

const root = join(import.meta.dirname, '..');
execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(root, 'bench/tsconfig.stores.json')], { stdio: 'inherit' });
const { main } = await import(pathToFileURL(join(root, 'dist/bench-stores/bench/stores.js')).href);
process.chdir(root);
await main(process.argv.slice(2));
