import { describe, expect, it } from 'vitest';
import { isStandardName } from '../../src/ranking/standard-names.js';
import { rankHandles } from '../../src/ranking/rank-handles.js';
import type { RankEvidence, RankSpan } from '../../src/ranking/rank-evidence.js';
import { createSpan } from '../../src/model/span.js';
import type { Handle, HandleKind } from '../../src/types.js';

describe('standard names: what every program in a language uses', () => {
  it.each([
    ['identifier', 'fmt.Errorf'],
    ['identifier', 'os.Stderr'],
    ['identifier', 'context.Background()'],
    ['identifier', 'filepath.Join'],
    ['identifier', 't.Fatalf'],
    ['identifier', 'self.assertEqual'],
    ['identifier', 'os.path.join'],
    ['identifier', 'JSON.stringify'],
    ['identifier', 'Enum.map'],
    ['identifier', 'path.Join'],
    ['identifier', 'url.Parse'],
    ['path', 'path/filepath'],
    ['path', '/dev/null'],
  ] as const)('%s %s is a standard name', (kind, text) => {
    expect(isStandardName({ kind, text })).toBe(true);
  });

  it.each([
    ['identifier', 'settings.IsPilotEnabled()'],
    ['identifier', 'strategy.GetOrCreateOrbitRunID'],
    ['identifier', 'staleLeaseWindow'],
    ['identifier', 'ORBIT_PILOT_APPLY'],
    ['path', '.orbit/pilot.lock'],
    ['path', '/dev/sda1'],
    ['assignment', 'fmt.Errorf=1'],
    ['identifier', 'path.startswith'],
    ['identifier', 'errors.append'],
    ['identifier', 'url.scheme'],
  ] as const)('%s %s is not', (kind, text) => {
    expect(isStandardName({ kind, text })).toBe(false);
  });

  it('ranks a standard call below a project name seen exactly as often', () => {
    const text = 'if err != nil { return fmt.Errorf("x: %w", err) }\nok := settings.IsPilotEnabled()';
    const span = createSpan({ kind: 'tool-result', text, tokens: 30 });
    const handle = (name: string, kind: HandleKind = 'identifier'): Handle => ({
      kind,
      text: name,
      key: name.toLowerCase(),
      start: text.indexOf(name),
      end: text.indexOf(name) + name.length,
      spanId: span.id,
      seq: 0,
      role: 'tool',
      tokens: 4,
    });
    const handles = [handle('fmt.Errorf'), handle('settings.IsPilotEnabled()')];
    const evidence: RankEvidence = {
      occurrences: handles,
      spans: new Map<string, RankSpan>([[span.id, span]]),
      fromSeq: 0,
      toSeq: 0,
    };
    const ranked = rankHandles(handles, evidence);
    expect(ranked.map((entry) => entry.handle.text)).toEqual(['settings.IsPilotEnabled()', 'fmt.Errorf']);
    expect(ranked[1]?.features.standardName).toBe(true);
    expect(ranked[0]?.features.standardName).toBe(false);
  });
});
