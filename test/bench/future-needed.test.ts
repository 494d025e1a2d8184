import { describe, expect, it } from 'vitest';
import type { TranscriptMessage } from '../../src/ingest/messages.js';
import {
  agentTextAfter,
  agentWritten,
  argumentStrings,
  countPresent,
  futureNeeded,
  identifierTokens,
} from '../../bench/quality/future-needed.js';

describe('identifierTokens (the yardstick rule)', () => {
  it('keeps paths, URLs, KEY=VALUE, separated or digit-bearing identifiers and hex ids', () => {
    const text =
      'Edit src/ledger/window.ts:42 then open https://example.org/docs?id=7, set LOG_LEVEL=debug, deploy to eu-west-2b with commit 9f3a2c1e.';
    expect(identifierTokens(text)).toEqual([
      'src/ledger/window.ts',
      'https://example.org/docs?id=7',
      'LOG_LEVEL=debug',
      'eu-west-2b',
      '9f3a2c1e',
    ]);
  });

  it('keeps underscored, dotted and versioned names and absolute paths', () => {
    expect(identifierTokens('call handle_budget in README.md on node v20 under /tmp/x')).toEqual([
      'handle_budget',
      'README.md',
      '/tmp/x',
    ]);
  });

  it('drops plain words, bare numbers, short tokens and separators alone', () => {
    expect(identifierTokens('The build took 1200 ms, e.g. it is fine -- and // nothing else; v2 ok.')).toEqual([]);
  });

  it('strips trailing punctuation and separators, never keeps a line suffix on a path', () => {
    expect(identifierTokens('see config.yaml. and lib/a.ts:12: or node_modules_')).toEqual([
      'config.yaml',
      'lib/a.ts',
      'node_modules',
    ]);
  });

  it('yields each token once', () => {
    expect(identifierTokens('db-replica-07 db-replica-07 db-replica-07')).toEqual(['db-replica-07']);
  });
});

describe('future-needed handles at a cut', () => {
  const messages: TranscriptMessage[] = [
    { role: 'user', content: 'The replica is db-replica-07.internal and the config lives in conf/app.toml.' },
    { role: 'tool', toolCallId: 'c0', content: 'ERROR code E4021 in worker_pool.rs' },
    {
      role: 'assistant',
      content: 'Looking at worker_pool.rs now.',
      toolCalls: [{ id: 'c1', name: 'bash', arguments: JSON.stringify({ command: 'grep -n E4021 src/new_file.rs' }) }],
    },
    { role: 'user', content: 'Also check conf/app.toml please.' },
    {
      role: 'assistant',
      content: 'Pointing away from db-replica-07.internal.',
      toolCalls: [{ id: 'c2', name: 'edit', arguments: JSON.stringify({ path: 'conf/app.toml', lines: ['x'] }) }],
    },
  ];

  it('counts what the agent wrote after the cut that appeared before it, not what only the user repeated', () => {
    expect(futureNeeded(messages, 2)).toEqual(['worker_pool.rs', 'E4021', 'db-replica-07.internal', 'conf/app.toml']);
  });

  it('ignores tokens first seen after the cut and anything once the cut is at the end', () => {
    expect(futureNeeded(messages, 2)).not.toContain('src/new_file.rs');
    expect(futureNeeded(messages, messages.length)).toEqual([]);
  });

  it('reads the string values of tool-call arguments, not the JSON around them', () => {
    expect(argumentStrings('{"a":"x/y.ts","b":{"c":["LOG=1"]},"n":3}')).toEqual(['x/y.ts', 'LOG=1']);
    expect(argumentStrings('not json')).toEqual(['not json']);
    expect(agentWritten(messages[1] as TranscriptMessage)).toEqual([]);
    expect(agentTextAfter(messages, 4)).toContain('conf/app.toml');
  });

  it('counts verbatim presence in a context text', () => {
    expect(countPresent(['conf/app.toml', 'E4021'], '[user]\nAlso check conf/app.toml please.')).toBe(1);
  });
});
