import { describe, expect, it } from 'vitest';
import { looksLikeMarkup, looksLikeNoise } from '../../src/ranking/index-noise.js';
import type { HandleKind } from '../../src/types.js';

const noise = (kind: HandleKind, text: string) => looksLikeNoise({ kind, text });

describe('index entries a reader throws away at a small window', () => {
  it('treats a printed JSON field whose value is only words or a small count as noise', () => {
    expect(noise('assignment', '"event_kind": "RunStarted"')).toBe(true);
    expect(noise('assignment', '"type": "command"')).toBe(true);
    expect(noise('assignment', '"count": 1')).toBe(true);
  });

  it('keeps a printed JSON field whose value can be looked up: an id, a path, a version', () => {
    expect(noise('assignment', '"session_id": "2026-03-14-5f3c2a9e-71b4-4d0e-8c26-b19e7a04d3f1"')).toBe(false);
    expect(noise('assignment', '"path": "cmd/orbit/cli/lease.go"')).toBe(false);
    expect(noise('assignment', '"model": "kestrel-mini-3-2-20260115"')).toBe(false);
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
