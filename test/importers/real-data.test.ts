/**
 * Runs every importer on the real data sets in `../shared/data` (or `CONTEXT_LEDGER_DATA`; see its README) when
 * they are present; skipped, with the reason, when they are not.
 */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TranscriptEvent } from '../../src/importers/events.js';
import { locomoQuestions } from '../../src/importers/locomo.js';
import { detectImportFormat, readEvents } from '../../src/importers/registry.js';
import { DATA as FOUND } from '../data-dir.js';

const DATA = FOUND ?? path.resolve(process.cwd(), '../shared/data');
const present = existsSync(DATA);
const reason = `real data sets not found at ${DATA}; place them there or set CONTEXT_LEDGER_DATA (see its README)`;
if (!present) console.log(`skipping real-data importer tests: ${reason}`);

function files(folder: string, suffix: string): string[] {
  const directory = path.join(DATA, folder);
  return existsSync(directory)
    ? readdirSync(directory)
        .filter((name) => name.endsWith(suffix))
        .sort()
        .map((name) => path.join(directory, name))
    : [];
}

async function tally(file: string) {
  const counts = { session: 0, message: 0, compaction: 0, system: 0, user: 0, assistant: 0, tool: 0 };
  const events: TranscriptEvent[] = [];
  const skipped: unknown[] = [];
  for await (const event of readEvents(file, { onSkip: (error) => skipped.push(error) })) {
    counts[event.type]++;
    if (event.type === 'message') counts[event.message.role]++;
    events.push(event);
  }
  console.log(`${path.basename(file)} (${await detectImportFormat(file)}): ${JSON.stringify(counts)}`);
  expect(skipped).toEqual([]);
  return { counts, events };
}

describe.skipIf(!present)(`real data in ${DATA}`, () => {
  it('Claude Code sessions: each yields exactly one compaction, not also emitted as a message', async () => {
    const sessions = files('claude-code', '.jsonl').filter((file) => !file.endsWith('.compact-agent.jsonl'));
    expect(sessions).toHaveLength(2);
    for (const file of sessions) {
      expect(await detectImportFormat(file)).toBe('claude-code');
      const { counts, events } = await tally(file);
      expect(counts.compaction).toBe(1);
      expect(counts.message).toBeGreaterThan(300);
      const compaction = events.find((event) => event.type === 'compaction');
      expect(compaction).toMatchObject({ summarizer: { name: 'claude-code', version: '2.1.39' } });
      const summary = compaction?.type === 'compaction' ? compaction.summary : '';
      expect(summary.length).toBeGreaterThan(1000);
      expect(events.some((event) => event.type === 'message' && event.message.content === summary)).toBe(false);
      const calls = new Set(
        events.flatMap((event) =>
          event.type === 'message' ? (event.message.toolCalls ?? []).map((call) => call.id) : [],
        ),
      );
      const results = events.filter((event) => event.type === 'message' && event.message.role === 'tool');
      expect(results.every((event) => event.type === 'message' && calls.has(event.message.toolCallId ?? ''))).toBe(
        true,
      );
    }
  });

  it('Claude Code compaction-agent files read without errors', async () => {
    const agents = files('claude-code', '.compact-agent.jsonl');
    expect(agents).toHaveLength(2);
    for (const file of agents) {
      expect(await detectImportFormat(file)).toBe('claude-code');
      const { counts } = await tally(file);
      expect(counts.assistant).toBe(1);
    }
  });

  it('mini-swe-agent JSONL: 40 sessions, each opening with system and user', async () => {
    const [file] = files('swe-agent', '.jsonl');
    expect(file).toBeDefined();
    expect(await detectImportFormat(file!)).toBe('swe-agent');
    const { counts, events } = await tally(file!);
    expect(counts.session).toBe(40);
    expect(counts.system).toBe(40);
    expect(counts.user).toBe(40);
    expect(counts.tool).toBeGreaterThan(1000);
    expect(events[0]).toEqual({ type: 'session', sessionId: 'astropy__astropy-12907', label: `${file}:1` });
  });

  it('LoCoMo: 5 sessions whose dia_id labels cover the QA evidence', async () => {
    const [file] = files('locomo', '.json');
    expect(file).toBeDefined();
    expect(await detectImportFormat(file!)).toBe('locomo');
    const { counts, events } = await tally(file!);
    expect(counts.session).toBe(5);
    const labels = new Set<string>();
    let sample = '';
    for (const event of events) {
      if (event.type === 'session') sample = event.sessionId;
      else if (event.type === 'message' && event.message.role !== 'system')
        labels.add(`${sample}/${event.message.label}`);
    }
    const questions = await locomoQuestions(file!);
    const evidence = questions.flatMap((question) => question.evidence.map((id) => `${question.sampleId}/${id}`));
    const missing = evidence.filter((id) => !labels.has(id));
    console.log(
      `LoCoMo: ${labels.size} turns, ${questions.length} questions, ${evidence.length} evidence ids, ${missing.length} not found as a turn: ${missing.join(', ')}`,
    );
    expect(questions.length).toBeGreaterThan(900);
    expect(missing.length).toBeLessThan(evidence.length / 50);
  });
});

it.skipIf(present)(`real-data importer tests skipped: ${reason}`, () => {});
