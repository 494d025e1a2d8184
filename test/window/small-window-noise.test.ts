import { describe, expect, it } from 'vitest';
import { looksLikeMarkup, looksLikeNoise } from '../../src/ranking/index-noise.js';
import type { HandleKind } from '../../src/types.js';

const noise = (kind: HandleKind, text: string) => looksLikeNoise({ kind, text });

describe('index entries a reader throws away at a small window', () => {
  it('treats a printed JSON field whose value is only words or a small count as noise', () => {
    expect(noise('assignment', '"hook_event_name": "SessionStart"')).toBe(true);
    expect(noise('assignment', '"type": "command"')).toBe(true);
    expect(noise('assignment', '"count": 1')).toBe(true);
  });

  it('keeps a printed JSON field whose value can be looked up: an id, a path, a version', () => {
    expect(noise('assignment', '"session_id": "2026-01-23-08940314-9e93-46b1-a598-06bada65ed55"')).toBe(false);
    expect(noise('assignment', '"path": "cmd/entire/cli/state.go"')).toBe(false);
    expect(noise('assignment', '"model": "claude-sonnet-4-5-20250929"')).toBe(false);
    expect(noise('assignment', '"max_connections": 134')).toBe(false);
  });

  it("treats a template's count of one with a plural noun as noise, not a count with its unit", () => {
    expect(noise('number', '1 messages')).toBe(true);
    expect(noise('number', '5 lines')).toBe(false);
    expect(noise('number', '5 chars')).toBe(false);
    expect(noise('number', '1 hour')).toBe(false);
  });

  it('treats a style declaration closed by its semicolon as markup', () => {
    expect(looksLikeMarkup({ text: 'margin-bottom: 2px;' })).toBe(true);
    expect(looksLikeMarkup({ text: 'cursor: pointer;' })).toBe(true);
    expect(looksLikeMarkup({ text: 'timeout: 30s' })).toBe(false);
    expect(looksLikeMarkup({ text: 'PAYMENTS_DB_REPLICA: eu-west-2b;' })).toBe(false);
  });
});
