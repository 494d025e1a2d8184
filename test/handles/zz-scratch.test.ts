import { test } from 'vitest';
import { scoreExtraction } from '../../src/handles/score.js';
import { HANDLE_FIXTURES } from './fixtures.js';
test('score', () => {
  const s = scoreExtraction(HANDLE_FIXTURES);
  for (const [k, v] of Object.entries(s.kinds)) console.log(k.padEnd(11), v.precision.toFixed(3), v.recall.toFixed(3), v.tp, v.fp, v.fn);
  for (const m of s.misses) console.log(m.type, m.kind, JSON.stringify(m.text), '<=', JSON.stringify(m.input.slice(0, 100)));
});
