#!/usr/bin/env node
/**
 * README figures from their sources, never by hand. Each figure sits between `<!-- figures:NAME -->` and
 * `<!-- /figures -->` in README.md or examples/README.md; this script rewrites the text between the markers from
 * `bench/results/*.json` and from the built code (`dist/`: the demo's message count, the MCP tool list).
 *   node scripts/readme-figures.mjs                   rewrite the blocks
 *   node scripts/readme-figures.mjs --check           exit 1, naming each block that is out of date (a test runs this)
 *   node scripts/readme-figures.mjs --measure-audit [DATA]
 *       first re-run `context-ledger audit --json` on DATA/claude-code (default: CONTEXT_LEDGER_DATA or
 *       /work/shared/data) into bench/results/audit-claude-code.json, then rewrite
 * Needs `npm run build` first.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = new URL('..', import.meta.url).pathname;
const RESULTS = join(ROOT, 'bench', 'results');
const AUDIT_RESULT = join(RESULTS, 'audit-claude-code.json');
const FILES = ['README.md', 'examples/README.md'];
const BLOCK = /<!-- figures:([a-z-]+) -->([\s\S]*?)<!-- \/figures -->/g;
const NUMBER_WORDS = 'zero one two three four five six seven eight nine ten eleven twelve'.split(' ');

function json(name) {
  return JSON.parse(readFileSync(join(RESULTS, name), 'utf8'));
}

function row(result, label) {
  for (const table of result.tables)
    for (const cells of table.rows) if (String(cells[0]).startsWith(label)) return cells;
  throw new Error(`${result.name}: no row starting with ${JSON.stringify(label)} in bench/results/${result.name}.json`);
}

function measureAudit(dataDir) {
  const folder = join(dataDir, 'claude-code');
  const files = readdirSync(folder)
    .filter((name) => name.endsWith('.jsonl') && !name.endsWith('.compact-agent.jsonl'))
    .sort()
    .map((name) => join(folder, name));
  const stdout = execFileSync(
    process.execPath,
    [join(ROOT, 'dist/cli/main.js'), 'audit', ...files, '--json', '--quiet'],
    {
      maxBuffer: 256 * 1024 * 1024,
      encoding: 'utf8',
    },
  );
  const rows = JSON.parse(stdout).files.flatMap((file) =>
    file.sessions.flatMap((session) =>
      session.compactions.map((compaction) => ({
        session: session.sessionId,
        futureNeeded: compaction.futureNeeded.length,
        keptByAgent: compaction.futureNeeded.filter((handle) => handle.keptByAgent).length,
        ledgerInWindow: compaction.ledger.futureNeededInWindow,
        ledgerReachable: compaction.ledger.futureNeededReachable,
        agentTokens: compaction.agentSummaryTokens,
        ledgerTokens: compaction.ledger.tokens,
      })),
    ),
  );
  const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
  const result = { name: 'audit-claude-code', date: new Date().toISOString(), commit, rows };
  writeFileSync(AUDIT_RESULT, `${JSON.stringify(result, null, 2)}\n`);
}

/** Each figure's text, by block name. */
async function figures() {
  const { demoTranscript } = await import(join(ROOT, 'dist/cli/demo-transcript.js'));
  const { MCP_TOOL_NAMES } = await import(join(ROOT, 'dist/integrations/mcp/tool-names.js'));
  const hook = json('speed-hook.json');
  const [, calls, median, p95] = row(hook, 'Stop as a process');
  const audit = json('audit-claude-code.json');
  const count = MCP_TOOL_NAMES.length;
  return {
    'demo-messages': `${demoTranscript().length}-message`,
    'mcp-tools': `${NUMBER_WORDS[count] ?? count} tools: ${MCP_TOOL_NAMES.map((name) => `\`${name}\``).join(', ')}`,
    'hook-stop': `**${median} ms** median (p95 ${p95}, ${calls} calls; \`speed-hook\` run of ${hook.date.slice(0, 10)})`,
    'audit-table': [
      '',
      "| session | future-needed handles | kept by Claude Code's summary | context-ledger in the window | reachable with one recall | tokens, Claude Code / context-ledger |",
      '|---|---|---|---|---|---|',
      ...audit.rows.map(
        (entry) =>
          `| \`${entry.session.slice(0, 8)}…\` | ${entry.futureNeeded} | ${entry.keptByAgent} | ${entry.ledgerInWindow} | ` +
          `${entry.ledgerReachable} | ${entry.agentTokens} / ${entry.ledgerTokens} |`,
      ),
      '',
      `(\`audit --json\` at commit ${audit.commit}, ${audit.date.slice(0, 10)}: \`bench/results/audit-claude-code.json\`)`,
      '',
    ].join('\n'),
  };
}

const args = process.argv.slice(2);
if (args[0] === '--measure-audit') measureAudit(args[1] ?? process.env.CONTEXT_LEDGER_DATA ?? '/work/shared/data');
const check = args.includes('--check');
const values = await figures();
const stale = [];
for (const file of FILES) {
  const path = join(ROOT, file);
  const before = readFileSync(path, 'utf8');
  const after = before.replace(BLOCK, (whole, name, body) => {
    if (!(name in values)) throw new Error(`${file}: unknown figure block ${name}`);
    if (body !== values[name]) stale.push(`${file}: figures:${name}`);
    return `<!-- figures:${name} -->${values[name]}<!-- /figures -->`;
  });
  if (!check && after !== before) writeFileSync(path, after);
}
if (check && stale.length > 0) {
  process.stderr.write(`README figures out of date (run npm run readme:figures): ${stale.join(', ')}\n`);
  process.exit(1);
}
if (!check) process.stdout.write(stale.length > 0 ? `rewrote ${stale.join(', ')}\n` : 'figures already up to date\n');
