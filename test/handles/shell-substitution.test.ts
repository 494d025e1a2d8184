/**
 * A shell command substitution scans as `name=$` (the token ends at its parenthesis): the assignment is the whole
 * `name=$(command)` when it closes on its line, short enough to show, and runs one command; else it states no value and
 * is no assignment (the name stays a name). A value never runs on past the end of its word or its `)` (issue 38).
 */
import { describe, expect, it } from 'vitest';
import { extractHandles } from '../../src/handles/extract.js';

const texts = (text: string) => extractHandles(text, { toolOutput: true }).map((handle) => handle.text);

describe('a shell command substitution', () => {
  it('is the whole `name=$(command)`: what the name is set from', () => {
    const found = texts('rev=$(git rev-parse HEAD); echo "$rev"');
    expect(found).toContain('rev=$(git rev-parse HEAD)');
    expect(found).not.toContain('rev=$');
    expect(texts('count=$(wc -l < $(ls -1 build/*.log))')).toContain('count=$(wc -l < $(ls -1 build/*.log))');
    expect(texts('LOG=$(make check 2>&1)')).toContain('LOG=$(make check 2>&1)');
  });

  it('is no assignment when the command chains commands outside quotes: the name stays a name', () => {
    for (const line of [
      'STAGE_DIR=$(mktemp -d || echo /tmp/stage)',
      'TAG_NAME=$(git tag | tail -1)',
      'SHA_LIST=$(git log -3; git status)',
      'HEAD_SHA=$(git fetch && git rev-parse FETCH_HEAD)',
    ]) {
      const found = texts(line);
      expect(found.filter((text) => text.includes('=$'))).toEqual([]);
      expect(found).toContain(line.slice(0, line.indexOf('=')));
    }
    expect(texts(`MODE=$(grep -c 'a|b' notes.txt)`)).toContain(`MODE=$(grep -c 'a|b' notes.txt)`);
  });

  it('stops a value at the end of its word and a substitution at its parenthesis, before the rest of the command', () => {
    const found = texts(
      'ticket_url=$(gh issue view 42 --json url -q .url) && firefox --new-window --kiosk=1 "$ticket_url"',
    );
    expect(found).toContain('ticket_url=$(gh issue view 42 --json url -q .url)');
    expect(found).toContain('--kiosk=1');
    expect(texts('NODE_ENV=test npm run check --watch')).toContain('NODE_ENV=test');
    for (const text of found.concat(texts('NODE_ENV=test npm run check --watch')))
      if (text.includes('=')) expect(text).not.toMatch(/&&|firefox|--watch|npm run/);
  });

  it('states no value when it does not close on its line or runs long: no assignment then', () => {
    expect(texts('rev=$(git rev-parse\\\n  HEAD)').some((text) => text.startsWith('rev='))).toBe(false);
    const long = `out=$(${'x '.repeat(80)})`;
    expect(texts(long).some((text) => text.startsWith('out='))).toBe(false);
  });

  it('leaves `NAME=$OTHER` an assignment', () => {
    expect(texts('export TARGET_DIR=$BUILD_ROOT')).toContain('TARGET_DIR=$BUILD_ROOT');
  });

  it('reads the same text the same way whatever was read before it (the token memo)', () => {
    expect(texts('a rev=$ b\nrev=$(git log -1)')).toEqual(texts('a rev=$ b\nrev=$(git log -1)'));
    expect(texts('rev=$(git log -1)\nrev=$ alone')).toContain('rev=$(git log -1)');
    expect(texts('rev=$ alone\nrev=$(git log -1)')).toContain('rev=$(git log -1)');
  });
});
