// Writes dist/tokens/o200k-rank-table.bin, the o200k rank table built from gpt-tokenizer's rank list (see
// src/tokens/o200k-rank-file.ts), after `tsc` compiled dist/. Run by `npm run build`.
import { writeFileSync } from 'node:fs';
import { RANK_FILE_URL, rankFileBytes } from '../dist/tokens/o200k-rank-file.js';
import { buildRankTable, loadRankList, rankListVersion } from '../dist/tokens/o200k-rank-table.js';

writeFileSync(RANK_FILE_URL, rankFileBytes(buildRankTable(loadRankList()), rankListVersion()));
