import { describe, expect, it } from 'vitest';
import type { Handle } from '../../src/types.js';
import { markReplacedValues } from '../../src/window/replaced-marks.js';
import { handleAt } from '../helpers.js';

function handle(text: string, kind: Handle['kind'] = 'assignment'): Handle {
  return { ...handleAt(text, kind, 'user'), key: text, spanId: 'sha256:' + '2'.repeat(64), seq: 0, tokens: 6 };
}

describe('a summary line stating a value a current binding replaced is marked when shown', () => {
  it('marks a value a "from X to Y" binding replaced, naming the binding', () => {
    const summary = '- The client is configured with API key key_a1b2c3.\n- Tests pass locally.';
    const shown = markReplacedValues(summary, [handle('API key from key_a1b2c3 to key_d4e5f6')]);
    expect(shown.split('\n')).toEqual([
      '- The client is configured with API key key_a1b2c3. (replaced since: API key from key_a1b2c3 to key_d4e5f6)',
      '- Tests pass locally.',
    ]);
  });

  it('marks a line binding a label the record now binds to another value', () => {
    const summary = '- Run the checks against db-ro-4 only (DB_HOST=db-ro-4).';
    expect(markReplacedValues(summary, [handle('DB_HOST=db-ro-9')])).toBe(
      `${summary} (replaced since: DB_HOST=db-ro-9)`,
    );
    // The current value, or another label's, is not marked.
    expect(markReplacedValues('- DB_HOST=db-ro-9 is the host.', [handle('DB_HOST=db-ro-9')])).toBe(
      '- DB_HOST=db-ro-9 is the host.',
    );
    expect(markReplacedValues(summary, [handle('REDIS_HOST=cache-2')])).toBe(summary);
  });

  it('marks a line read again (its bindings remembered) against the bindings of each record alike', () => {
    const line = '- Point the workers at QUEUE_URL=amqp://mq-3 (QUEUE_URL=amqp://mq-3).';
    const summary = `${line}\n- Tests pass locally.`;
    // The same lines, marked against the bindings of one record, then of others, then of the first again.
    for (let round = 0; round < 2; round++) {
      expect(markReplacedValues(summary, [handle('QUEUE_URL=amqp://mq-5')]).split('\n')).toEqual([
        `${line} (replaced since: QUEUE_URL=amqp://mq-5)`,
        '- Tests pass locally.',
      ]);
      expect(markReplacedValues(summary, [handle('QUEUE_URL=amqp://mq-3')])).toBe(summary);
      expect(markReplacedValues(summary, [handle('QUEUE_URL=amqp://mq-7')]).split('\n')[0]).toBe(
        `${line} (replaced since: QUEUE_URL=amqp://mq-7)`,
      );
    }
  });

  it('leaves code, bare values and a summary with no replaced value as they are', () => {
    const summary = '- The loop uses timeout=3 on each call.\n- The replica is db-ro-4.';
    expect(markReplacedValues(summary, [handle('timeout=30'), handle('db-ro-9', 'identifier')])).toBe(summary);
    expect(markReplacedValues('', [handle('DB_HOST=db-ro-9')])).toBe('');
  });
});
