// Writes dist/tokens/o200k-rank-table.bin, the o200k rank table built from gpt-tokenizer's rank list (see
// src/tokens/o200k-rank-file.ts), after `tsc` compiled dist/. Run by `npm run build`; the first argument names another
// built tree than dist/ (a scratch build's folder). The file is written beside its place and renamed over it: a process
// reading the old file a few bytes at a time (a hook, src/tokens/o200k-rank-pages.ts) keeps reading the old bytes.
import { renameSync, writeFileSync } from 'node:fs';
import process from 'node:process';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const dist = resolve(process.argv[2] ?? resolve(fileURLToPath(import.meta.url), '../../dist'));
const module = (path) => import(pathToFileURL(resolve(dist, path)).href);
const { RANK_FILE_URL, rankFileBytes } = await module('tokens/o200k-rank-file.js');
const { buildRankTable, loadRankList, rankListVersion } = await module('tokens/o200k-rank-table.js');

const target = fileURLToPath(RANK_FILE_URL);
writeFileSync(`${target}.${process.pid}.tmp`, rankFileBytes(buildRankTable(loadRankList()), rankListVersion()));
renameSync(`${target}.${process.pid}.tmp`, target);
