#!/usr/bin/env node
// Fails (exit 1) when a git-tracked src/**/*.ts file has a line over the limit (140 characters by
// default), listing each as `file:line (N chars)`. Prettier does not break long strings, template
// literals or comments, so this check covers what it leaves.
//
// Usage: node scripts/check-line-length.mjs [--max N] [--exclude DIR]...
// Run from the repository root; --exclude skips every file under DIR (repeatable).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

function usage(message) {
  console.error(`check-line-length: ${message}`);
  console.error('usage: node scripts/check-line-length.mjs [--max N] [--exclude DIR]...');
  process.exit(2);
}

function parseArgs(argv) {
  let max = 140;
  const excludes = [];
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index];
    const value = argv[index + 1];
    if (arg === '--max') {
      if (value === undefined || !/^[1-9]\d*$/.test(value))
        usage(`--max needs a positive integer, got ${JSON.stringify(value)}`);
      max = Number(value);
      index++;
    } else if (arg === '--exclude') {
      if (value === undefined || value === '' || value.startsWith('--')) usage('--exclude needs a directory');
      excludes.push(value.replace(/^\.\//, '').replace(/\/+$/, ''));
      index++;
    } else {
      usage(`unknown argument ${JSON.stringify(arg)}`);
    }
  }
  return { max, excludes };
}

function trackedSources() {
  try {
    const out = execFileSync('git', ['ls-files', '-z', '--', 'src/*.ts'], { encoding: 'utf8' });
    return out.split('\0').filter((file) => file.endsWith('.ts'));
  } catch (error) {
    console.error(`check-line-length: cannot list git-tracked files in ${process.cwd()}: ${error.message}`);
    process.exit(2);
  }
}

const { max, excludes } = parseArgs(process.argv.slice(2));
const excluded = (file) => excludes.some((dir) => file === dir || file.startsWith(`${dir}/`));
const files = trackedSources().filter((file) => !excluded(file));
const long = [];
for (const file of files) {
  let text;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if (error.code === 'ENOENT') continue; // tracked but deleted in the work tree
    throw error;
  }
  text.split(/\r?\n/).forEach((line, index) => {
    const length = [...line].length;
    if (length > max) long.push(`${file}:${index + 1} (${length} chars)`);
  });
}
const skipped = excludes.length > 0 ? ` (excluding ${excludes.join(', ')})` : '';
if (long.length > 0) {
  for (const entry of long) console.error(entry);
  console.error(`${long.length} line(s) over ${max} characters in src/**/*.ts${skipped}`);
  process.exit(1);
}
console.log(`line length: ${files.length} files in src/**/*.ts, no line over ${max} characters${skipped}`);
