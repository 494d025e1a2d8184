/**
 * Every command's `--help` ends with examples (issue 38): each command the CLI defines (read from its source, so a new
 * command without examples fails here) has examples that run that command, and commander prints them after the
 * options, with the exit codes. Runs the source (no build).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { registerIntegrationCommands } from '../../src/cli/integration-commands.js';
import { EXAMPLES, addHelpExamples } from '../../src/cli/usage.js';

/** The top-level commands the CLI's source defines (`.command('name')`, the hook's agents left out: nested). */
async function definedCommands(): Promise<string[]> {
  const names = new Set<string>();
  for (const file of ['program.ts', 'integration-commands.ts']) {
    const source = await readFile(join(process.cwd(), 'src/cli', file), 'utf8');
    for (const match of source.matchAll(/\.command\('([a-z-]+)'\)/g)) names.add(match[1] ?? '');
  }
  // `install` and `uninstall` are one definition (`remove ? 'uninstall' : 'install'`).
  if (/'uninstall' : 'install'/.test(await readFile(join(process.cwd(), 'src/cli/integration-commands.ts'), 'utf8')))
    for (const name of ['install', 'uninstall']) names.add(name);
  return [...names].sort();
}

describe('examples in --help', () => {
  it('every command the CLI defines has examples', async () => {
    const defined = await definedCommands();
    expect(defined).toEqual(
      expect.arrayContaining(['audit', 'replay', 'status', 'hook', 'install', 'migrate', 'demo']),
    );
    expect(defined.filter((name) => (EXAMPLES[name]?.length ?? 0) === 0)).toEqual([]);
  });

  it("each command's examples run that command (or its alias)", () => {
    const aliases: Record<string, string[]> = { status: ['status', 'doctor'] };
    for (const [name, lines] of Object.entries(EXAMPLES)) {
      const runs = lines.filter((line) => line.startsWith('context-ledger '));
      expect(runs.length, name).toBeGreaterThan(0);
      for (const line of runs) expect(aliases[name] ?? [name], line).toContain(line.split(' ')[1]);
    }
  });

  it('commander prints them after the options, with the exit codes', () => {
    const program = new Command().name('context-ledger');
    registerIntegrationCommands(program, () => undefined);
    addHelpExamples(program);
    for (const command of program.commands) {
      let help = '';
      command.configureOutput({ writeOut: (text) => (help += text) });
      command.outputHelp();
      expect(help, command.name()).toMatch(/Options:[\s\S]*\nExamples:\n {2}context-ledger /);
      expect(help).toContain('Exit codes: 0 done; 2 bad input or usage');
    }
  });
});
