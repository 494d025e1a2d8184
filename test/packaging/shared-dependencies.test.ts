/**
 * `ai` and `@ai-sdk/provider` are the types an application passes into this package (a `LanguageModel`, the recall
 * tool it hands to `generateText`). With an exact pin, an application that runs `npm i ai` and gets a newer 6.x holds
 * two copies, and TypeScript refuses the tool (TS2322 "'[schemaSymbol]' is missing"). A caret range lets npm install
 * one copy for both. Checked against the installed versions, without network.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = process.cwd();
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
};

function installedVersion(name: string): string {
  const path = join(ROOT, 'node_modules', ...name.split('/'), 'package.json');
  return (JSON.parse(readFileSync(path, 'utf8')) as { version: string }).version;
}

/** Whether `version` satisfies the caret range `range` (`^MAJOR.MINOR.PATCH`, MAJOR > 0). */
function satisfiesCaret(range: string, version: string): boolean {
  const [major, minor, patch] = range.slice(1).split('.').map(Number);
  const [vMajor, vMinor, vPatch] = version.split('.').map((part) => Number.parseInt(part, 10));
  if (vMajor !== major) return false;
  if ((vMinor ?? 0) !== (minor ?? 0)) return (vMinor ?? 0) > (minor ?? 0);
  return (vPatch ?? 0) >= (patch ?? 0);
}

describe('types an application shares with the package come from one install', () => {
  it.each(['ai', '@ai-sdk/provider'])('%s is a caret range the installed version satisfies', (name) => {
    const range = manifest.dependencies[name] ?? '';
    expect(range, `package.json dependencies.${name}`).toMatch(/^\^\d+\.\d+\.\d+$/);
    expect(satisfiesCaret(range, installedVersion(name))).toBe(true);
    // A newer release of the same major, as `npm i ai` would bring, satisfies it too: npm keeps one copy.
    const [major] = range.slice(1).split('.');
    expect(satisfiesCaret(range, `${major}.999.0`)).toBe(true);
  });
});
