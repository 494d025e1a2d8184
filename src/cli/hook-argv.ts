/**
 * The arguments of a hook call (`hook claude-code` / `hook codex`, with `--store` and `--budget`), read without
 * commander: Claude Code starts the hook after every answer, and commander with the whole command line (every
 * command's options and help) is about a third of a bare Node start. Anything else, or anything unusual in a hook
 * call (`--help`, an unknown or repeated option, a missing value), is left to the full command line, which answers it
 * as it always did.
 */
import type { HookAgent } from '../integrations/claude-code/hook.js';
import type { HookCommandOptions } from './hook-command.js';

/** A hook call read from the arguments. */
export interface HookCall {
  readonly agent: HookAgent;
  readonly options: HookCommandOptions;
}

const AGENTS: readonly HookAgent[] = ['claude-code', 'codex'];
const OPTIONS = ['--store', '--budget'] as const;

type OptionName = (typeof OPTIONS)[number];

/** The option and its value at `index` (`--store X` or `--store=X`), and how many arguments it took; else undefined. */
function optionAt(
  args: readonly string[],
  index: number,
): { name: OptionName; value: string; used: number } | undefined {
  const argument = args[index] ?? '';
  const equals = argument.indexOf('=');
  const name = (equals === -1 ? argument : argument.slice(0, equals)) as OptionName;
  if (!OPTIONS.includes(name)) return undefined;
  if (equals !== -1) return { name, value: argument.slice(equals + 1), used: 1 };
  const value = args[index + 1];
  // A missing value, or one that looks like an option: commander's message says what is wrong.
  if (value === undefined || value.startsWith('-')) return undefined;
  return { name, value, used: 2 };
}

/**
 * The hook call `args` (the arguments after the script) ask for, or undefined when they are not a plain hook call
 * (then the full command line runs).
 */
export function hookCallOf(args: readonly string[]): HookCall | undefined {
  const [command, agent] = args;
  if (command !== 'hook' || !AGENTS.includes(agent as HookAgent)) return undefined;
  const given: Partial<Record<OptionName, string>> = {};
  for (let index = 2; index < args.length;) {
    const option = optionAt(args, index);
    if (option === undefined || given[option.name] !== undefined) return undefined;
    given[option.name] = option.value;
    index += option.used;
  }
  return { agent: agent as HookAgent, options: { store: given['--store'], budget: given['--budget'] } };
}
