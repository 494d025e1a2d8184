/**
 * A Claude Code session JSONL written by the tests themselves, in Claude Code's record shape
 * (user / assistant / tool_result / progress records, then a `compact_boundary` and the
 * `isCompactSummary` user record), for a payments-deploy story.
 */
import { appendFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';

/** One JSONL record. */
export type ClaudeRecord = Record<string, unknown>;

/** Builds the records of one session; uuids are deterministic. */
export function claudeSession(sessionId: string, cwd: string) {
  let counter = 0;
  let parent: string | null = null;
  const base = (type: string) => {
    counter++;
    const uuid = `00000000-0000-4000-8000-${String(counter).padStart(12, '0')}`;
    const record: ClaudeRecord = {
      parentUuid: parent,
      isSidechain: false,
      userType: 'external',
      cwd,
      sessionId,
      version: '2.1.39',
      gitBranch: 'main',
      type,
      uuid,
      timestamp: new Date(Date.UTC(2026, 10, 1, 9, 0, counter)).toISOString(),
    };
    parent = uuid;
    return record;
  };
  return {
    user: (text: string): ClaudeRecord => ({ ...base('user'), message: { role: 'user', content: text } }),
    assistant: (text: string): ClaudeRecord => ({
      ...base('assistant'),
      message: {
        model: 'claude-test',
        id: `msg_${counter}`,
        type: 'message',
        role: 'assistant',
        content: [{ type: 'text', text }],
      },
    }),
    toolUse: (id: string, command: string): ClaudeRecord => ({
      ...base('assistant'),
      message: {
        model: 'claude-test',
        id: `msg_${counter}`,
        type: 'message',
        role: 'assistant',
        content: [{ type: 'tool_use', id, name: 'Bash', input: { command } }],
      },
    }),
    toolResult: (id: string, output: string): ClaudeRecord => ({
      ...base('user'),
      message: { role: 'user', content: [{ tool_use_id: id, type: 'tool_result', content: output }] },
    }),
    progress: (): ClaudeRecord => ({
      ...base('progress'),
      data: { type: 'hook_progress', hookEvent: 'PostToolUse', hookName: 'PostToolUse:Bash', command: 'true' },
    }),
    boundary: (): ClaudeRecord => {
      const record = base('system');
      return {
        ...record,
        parentUuid: null,
        subtype: 'compact_boundary',
        content: 'Conversation compacted',
        isMeta: false,
        level: 'info',
        compactMetadata: { trigger: 'auto', preTokens: 4200 },
      };
    },
    summary: (text: string): ClaudeRecord => ({
      ...base('user'),
      isCompactSummary: true,
      isVisibleInTranscriptOnly: true,
      message: {
        role: 'user',
        content: `This session is being continued from a previous conversation that ran out of context. The summary below covers the earlier portion of the conversation.\n\n${text}`,
      },
    }),
  };
}

/** The lines of records, each ending with a newline. */
export function jsonl(records: readonly ClaudeRecord[]): string {
  return records.map((record) => JSON.stringify(record) + '\n').join('');
}

/** Create `<home>/.claude/projects/<project>/` and return the transcript path of `sessionId`. */
export async function transcriptPath(home: string, cwd: string, sessionId: string): Promise<string> {
  const directory = join(home, '.claude', 'projects', cwd.replace(/[^A-Za-z0-9]/g, '-'));
  await mkdir(directory, { recursive: true });
  return join(directory, `${sessionId}.jsonl`);
}

/** Append text to the transcript (as Claude Code does, line by line). */
export function grow(file: string, text: string): Promise<void> {
  return appendFile(file, text);
}
