/** The text of `context-ledger status`: what is registered where, the ledger, the hook runs, and each problem's fix. */
import { forTerminal } from '../text/neutralize.js';
import { counted } from '../text/wording.js';
import type { StatusReport } from './status.js';
import type { InstallPlace } from './status-installs.js';

type Print = (line: string) => void;

/** `12.3 MB`, `4.0 KB`, `512 bytes`. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1e9) return `${(bytes / 1e9).toFixed(1)} GB`;
  if (bytes >= 1e6) return `${(bytes / 1e6).toFixed(1)} MB`;
  if (bytes >= 1e3) return `${(bytes / 1e3).toFixed(1)} KB`;
  return counted(bytes, 'byte');
}

function placeLine(place: InstallPlace): string {
  const agent = place.agent === 'codex' ? 'Codex' : 'Claude Code';
  const scope = place.scope === 'plugin' ? 'plugin' : `${place.scope} scope`;
  const hooks = place.hookEvents.length > 0 ? `hooks ${place.hookEvents.join(', ')} (${place.hooksFile})` : 'no hooks';
  const server = place.mcpServer ? `MCP server (${place.mcpFile})` : 'no MCP server';
  return `  ${agent}, ${scope}: ${place.scope === 'plugin' ? `enabled in ${place.hooksFile}` : `${hooks}; ${server}`}`;
}

function printLedger(report: StatusReport, print: Print): void {
  const { ledger } = report;
  const how = { given: '--store', 'working directory': 'in the working directory', hooks: "the project's hook ledger" };
  print(`ledger: ${ledger.store} (${how[ledger.source]})`);
  if (ledger.file !== undefined && !ledger.exists) print(`  no file yet at ${ledger.file}`);
  else {
    if (ledger.bytes !== undefined) print(`  ${ledger.file ?? ''}: ${formatBytes(ledger.bytes)}`);
    if (ledger.sessions !== undefined)
      print(`  ${counted(ledger.sessions, 'session')}, ${counted(ledger.spans ?? 0, 'span')}`);
  }
}

function printHooks(report: StatusReport, print: Print): void {
  if (report.hookRuns.length === 0) print('last hook runs: none recorded for this ledger');
  else print('last hook runs:');
  for (const run of report.hookRuns)
    print(
      `  ${run.at}  session ${forTerminal(run.sessionId)}` +
        (run.spans === undefined ? '' : `: ${counted(run.spans, 'span')}`) +
        (run.transcriptPath === undefined ? '' : ` from ${forTerminal(run.transcriptPath)}`),
    );
  const { hookLog } = report;
  const others = hookLog.otherFailureCount > 0 ? ` (and ${hookLog.otherFailureCount} of other projects' sessions)` : '';
  print(`hook log: ${hookLog.file}: ${counted(hookLog.failureCount, 'failure')} of this project's sessions${others}`);
  for (const line of hookLog.failures) {
    const session = line.sessionId === undefined ? '' : ` session ${forTerminal(line.sessionId)}`;
    print(`  ${line.at}  ${line.event ?? ''}${session}: ${forTerminal(line.message)}`);
  }
}

/** Print the report for a person at a terminal. */
export function printStatus(report: StatusReport, print: Print): void {
  print(`project: ${report.project}`);
  if (report.installs.length === 0) print('registered: nowhere (no hooks, no MCP server)');
  else print('registered:');
  for (const place of report.installs) print(placeLine(place));
  printLedger(report, print);
  printHooks(report, print);
  for (const note of report.notes) print(`note: ${note}`);
  if (report.healthy) {
    print('status: OK');
    return;
  }
  print(`status: ${counted(report.problems.length, 'problem')}`);
  for (const [index, { problem, fix }] of report.problems.entries()) {
    print(`  ${index + 1}. ${forTerminal(problem)}`);
    print(`     next step: ${fix}`);
  }
}
