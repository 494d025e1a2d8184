import { describe, expect, it } from 'vitest';
import { handleFeatures } from '../../src/ranking/rank-handles.js';
import { looksLikeNoise } from '../../src/ranking/index-noise.js';
import type { Handle, HandleKind, Role } from '../../src/types.js';

function handle(kind: HandleKind, text: string, seq: number, role: Role): Handle {
  return { kind, text, key: text, start: 0, end: text.length, spanId: `sha256:${seq}`, seq, role, tokens: 4 } as Handle;
}

describe('ranking a binding by the evidence of its value', () => {
  it('gives a config binding read by a tool the mentions and the user role of its value', () => {
    const binding = handle('assignment', 'write_primary: db-rw-32.corp', 1, 'tool');
    const occurrences = [
      binding,
      handle('endpoint', 'db-rw-32.corp', 1, 'tool'),
      handle('endpoint', 'db-rw-32.corp', 5, 'user'),
      handle('endpoint', 'db-rw-32.corp', 9, 'tool'),
    ];
    const evidence = { occurrences, spans: new Map(), fromSeq: 0, toSeq: 10 };
    const features = handleFeatures([binding], evidence).get(binding);
    expect(features?.userSaid).toBe(true);
    expect(features?.toolOnly).toBe(false);
    expect(features?.mentions).toBeCloseTo(Math.log2(1 + 3));
  });

  it('keeps the tally of a handle that binds nothing', () => {
    const bare = handle('assignment', 'status=200', 1, 'tool');
    const evidence = {
      occurrences: [bare, handle('identifier', '200', 2, 'user')],
      spans: new Map(),
      fromSeq: 0,
      toSeq: 3,
    };
    expect(handleFeatures([bare], evidence).get(bare)?.userSaid).toBe(false);
  });
});

describe('markup is noise in the index', () => {
  it.each([
    ['assignment', 'class="row row-2"'],
    ['assignment', 'data-testid="cell-32"'],
    ['identifier', '#1a1a2e'],
    ['assignment', 'background: #16213e'],
    ['assignment', 'margin: 12px'],
    ['assignment', 'type: :user'],
    ['assignment', 'project_id: project.id'],
    ['assignment', 'timestamp: DateTime.utc_now()'],
    ['assignment', 'phx-click="open_filter_panel"'],
    ['assignment', 'filter_start_row: nil'],
    ['assignment', '"banner_dismissed": false'],
    ['assignment', 'hasConflicts = true'],
    ['assignment', 'filter_message_ids: []'],
    ['assignment', 'alpha=%d'],
    ['assignment', 'ratio=%.2f'],
    ['assignment', 'name={}'],
    ['assignment', 'b = 2'],
  ] as const)('%s %j is noise', (kind, text) => {
    expect(looksLikeNoise({ kind, text })).toBe(true);
  });

  it.each([
    ['assignment', 'DB_HOST=db-ro-10'],
    ['assignment', 'primary region is us-east-2'],
    ['assignment', 'data_layer: KiteSqlite.DataLayer'],
    ['assignment', 'max_connections: 150'],
    ['assignment', 'DEBUG=false'],
    ['assignment', 'force=true'],
    ['assignment', 'LOG_FORMAT=%s-%d'],
    ['assignment', 'x=2'],
    ['identifier', 'INC-4821'],
  ] as const)('%s %j is not', (kind, text) => {
    expect(looksLikeNoise({ kind, text })).toBe(false);
  });
});
