/** Names of the PostgreSQL store's fixed statements: one per text, never shared by two texts. */
import { describe, expect, it } from 'vitest';
import { buildQueries } from '../../src/stores/postgres/queries.js';
import { STATEMENT_NAME_PREFIX, statementNames } from '../../src/stores/postgres/statement-names.js';

describe('statementNames', () => {
  it('names every fixed statement after its text, and skips what is not text', () => {
    const names = statementNames({ read: 'SELECT 1', again: 'SELECT 1', other: 'SELECT 2', build: () => 'SELECT 3' });
    expect([...names.keys()]).toEqual(['SELECT 1', 'SELECT 2']);
    for (const name of names.values()) expect(name).toMatch(new RegExp(`^${STATEMENT_NAME_PREFIX}[0-9a-f]{32}$`));
    expect(names.get('SELECT 1')).not.toBe(names.get('SELECT 2'));
    expect(statementNames({ read: 'SELECT 1' }).get('SELECT 1')).toBe(names.get('SELECT 1'));
  });

  it('gives the same statement of two schemas two names', () => {
    const one = buildQueries('ledger_one', undefined);
    const two = buildQueries('ledger_two', undefined);
    const first = statementNames(one).get(one.handlesByKey);
    expect(first).toBeDefined();
    expect(statementNames(two).get(two.handlesByKey)).not.toBe(first);
    expect(new Set(statementNames(one).values()).size).toBe(statementNames(one).size);
  });
});
