/**
 * Programs a command line starts with (`bindings.ts`): the words after them are a command's arguments, not a label
 * ("git remote set-url origin https://…" sets no `remote set-url origin`).
 */

const COMMANDS: ReadonlySet<string> = new Set(
  (
    'git gh npm npx yarn pnpm bun bunx deno node tsx python python3 pip pip3 uv poetry pytest go cargo rustc make ' +
    'bd mise just docker kubectl helm terraform bash sh zsh rg grep sed awk cat ls cp mv rm mkdir curl wget ssh ' +
    'scp brew apt mix elixir iex ruby bundle rails java mvn gradle dotnet claude codex'
  ).split(' '),
);

/**
 * Whether `word` is a program a command starts with, also where it is glued to what opens the command: a JSON string a
 * tool call's arguments hold (`{"command":"git`), a command substitution (`$(git`), a quote or a backtick.
 */
export function isCommandWord(word: string): boolean {
  return COMMANDS.has(word.replace(/^.*[^\w.+-]/, '').toLowerCase());
}
