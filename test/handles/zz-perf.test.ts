import { test } from 'vitest';
import { extractHandles } from '../../src/handles/extract.js';
import { HANDLE_FIXTURES } from './fixtures.js';
test('perf', () => {
  const prose = 'I went hiking with my sister last weekend and it was lovely, we talked about work and the new house. ';
  const parts = [...HANDLE_FIXTURES.map((f) => f.text + '\n'), prose, prose, prose, prose, prose, prose];
  let s = ''; let i = 0;
  while (s.length < 5e6) { s += parts[(i * 7919) % parts.length]; i++; }
  const base = () => { const re = /[A-Za-z0-9_]+/g; let n = 0; while (re.exec(s) !== null) n++; return n; };
  base(); extractHandles(s.slice(0, 200000));
  let t = performance.now(); base(); base(); base(); const tb = (performance.now() - t) / 3;
  t = performance.now(); const h = extractHandles(s); const te = performance.now() - t;
  console.log('MB', (s.length / 1e6).toFixed(2), 'base MB/s', (s.length / 1e6 / (tb / 1000)).toFixed(1), 'extract MB/s', (s.length / 1e6 / (te / 1000)).toFixed(1), 'ratio', (tb / te).toFixed(2), 'handles', h.length);
  for (const kinds of [['path','url','endpoint','identifier','version','email','date','assignment'],['number'],['error'],['constraint'],['assignment']] as const) {
    t = performance.now(); extractHandles(s, { kinds }); console.log(kinds.join(','), (performance.now() - t).toFixed(0), 'ms');
  }
});
test('pathological', () => {
  for (const unit of ['a/', '-', '.', 'a', '1.', ':1', 'aB', '_', 'do not ', '@', 'x=', '"', '(', '#1', 'AAAAb', '1 ', 'never ', '\n', 'E  x\n', 'a-1-', 'a.b.', '::a', 'http://', 'timeout ']) {
    const s = unit.repeat(Math.ceil(100000 / unit.length));
    const t = performance.now(); const h = extractHandles(s); const d = performance.now() - t;
    if (d > 200) console.log('SLOW', JSON.stringify(unit), d.toFixed(0), 'ms', h.length);
  }
});
