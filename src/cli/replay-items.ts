/**
 * The items `replay` appends: the messages and agent compactions of one conversation of a transcript file. A file with
 * several conversations (SWE-agent trajectories, LoCoMo) replays the first, or the one `--trajectory` picks (by number
 * from 1, or by its id); the first pass also counts them, so replay can say how many there are.
 */
import { InvalidInputError } from '../errors.js';
import type { ImportFormat } from '../importers/events.js';
import { whereOf } from '../importers/message-check.js';
import { readEvents } from '../importers/registry.js';
import type { TranscriptInputs } from '../importers/transcript-input.js';
import { ingestGapOf } from '../ingest/ingest-gaps.js';
import { counted } from '../text/wording.js';
import type { ReplayItem } from './replay-resume.js';

/** What the items are read with. */
export interface ItemOptions {
  readonly format?: ImportFormat | 'auto' | undefined;
  readonly skipInvalid?: boolean | undefined;
  /** The conversation to replay: its number (from 1) or its id; default the first. */
  readonly trajectory?: string | undefined;
  /**
   * The command's owner of the inputs that are not regular files: a replay reads its file up to twice (and its head
   * for the `--format` check and to explain a failure), and a pipe gives its bytes once. Default: one per call.
   */
  readonly inputs?: TranscriptInputs | undefined;
}

/** Where the items' side output goes. */
export interface ItemHooks {
  readonly log: (line: string) => void;
  readonly onSkip?: (() => void) | undefined;
  readonly onProgress?: ((done: number, total: number) => void) | undefined;
  /** Told of every conversation the file starts (number from 1, id) while the file is read. */
  readonly onConversation?: ((index: number, id: string) => void) | undefined;
  /** Read on past the picked conversation to the end (to count the others); else stop where it ends. */
  readonly countAll?: boolean | undefined;
}

/** Whether conversation `index` (from 1) with `id` is the one `trajectory` picks (the first when none is given). */
function picks(trajectory: string | undefined, index: number, id: string | undefined): boolean {
  if (trajectory === undefined) return index === 1;
  return /^[1-9]\d*$/.test(trajectory) ? Number(trajectory) === index : trajectory === id;
}

/**
 * The items of the picked conversation of `file`, in order (at most `limit`). Lines skipped under `--skip-invalid`
 * inside it leave a note in their place (see ingest-gaps.ts): recall then reports a gap, not "never said". A file
 * with no conversation marks (every single-conversation format) is conversation 1.
 */
export async function* conversationItems(
  file: string,
  options: ItemOptions,
  hooks: ItemHooks,
  limit = Number.POSITIVE_INFINITY,
): AsyncGenerator<ReplayItem> {
  let conversation = 0;
  let active = picks(options.trajectory, 1, undefined);
  let finished = false;
  let count = 0;
  const gaps: ReplayItem[] = [];
  const events = readEvents(file, {
    format: options.format,
    skipInvalid: options.skipInvalid,
    inputs: options.inputs,
    onSkip: (error) => {
      if (!active) return;
      hooks.onSkip?.();
      hooks.log(`skipped: ${error.message}`);
      const message = ingestGapOf(error);
      gaps.push({ type: 'message', message, where: message.label ?? file });
    },
    onWarning: (message) => hooks.log(`warning: ${message}`),
    onProgress: hooks.onProgress,
  });
  for await (const event of events) {
    for (const gap of gaps.splice(0)) {
      if (count++ >= limit) return;
      yield gap;
    }
    if (count >= limit && !hooks.countAll) return;
    if (event.type === 'session') {
      conversation++;
      hooks.onConversation?.(conversation, event.sessionId);
      if (active && conversation > 1) finished = true;
      active = !finished && picks(options.trajectory, conversation, event.sessionId);
      if (finished && !hooks.countAll) return;
      continue;
    }
    if (!active || count >= limit) continue;
    count++;
    if (event.type === 'message')
      yield { type: 'message', message: event.message, where: whereOf(file, event.message) };
    else
      yield {
        type: 'compaction',
        summary: event.summary,
        summarizer: event.summarizer,
        where: event.label ? `${file} (${event.label})` : file,
      };
  }
  for (const gap of gaps.splice(0)) {
    if (count++ >= limit) return;
    yield gap;
  }
}

/** The conversations of a file as the first pass saw them: how many, and which one was picked. */
export interface Conversations {
  /** Conversations the file starts (0 for a file with no conversation marks: one conversation). */
  readonly count: number;
  /** True when reading stopped early (a bad line after the picked conversation): there may be more. */
  readonly atLeast: boolean;
  /** The picked conversation's number (from 1) and id, when the file marks its conversations. */
  readonly picked?: { readonly index: number; readonly id: string } | undefined;
  /** The first ids, to name in messages. */
  readonly ids: readonly string[];
}

/** Collects {@link Conversations} from `onConversation` while the first pass reads. */
export class ConversationCounter {
  private count = 0;
  private picked: Conversations['picked'];
  private readonly ids: string[] = [];

  constructor(private readonly trajectory: string | undefined) {}

  /** The `onConversation` hook. */
  readonly seen = (index: number, id: string): void => {
    this.count = index;
    if (this.ids.length < 5) this.ids.push(id);
    if (this.picked === undefined && picks(this.trajectory, index, id)) this.picked = { index, id };
  };

  /** What was seen; `atLeast` when reading stopped before the end. */
  result(atLeast: boolean): Conversations {
    return { count: this.count, atLeast, picked: this.picked, ids: this.ids };
  }
}

/**
 * Check the pick against what the file holds: a `--trajectory` naming no conversation is an error that says how many
 * there are; a file of several conversations replayed without one gets a line saying so and how to pick another.
 */
export function reportConversations(
  file: string,
  trajectory: string | undefined,
  seen: Conversations,
  sessionId: string,
  log: (line: string) => void,
): void {
  const how = `${seen.atLeast ? 'at least ' : ''}${counted(seen.count, 'conversation')}`;
  const names = seen.ids.length > 0 ? ` (ids: ${seen.ids.join(', ')}${seen.count > seen.ids.length ? ', …' : ''})` : '';
  if (trajectory !== undefined && seen.picked === undefined && !(seen.count === 0 && trajectory === '1'))
    throw new InvalidInputError(
      seen.count === 0
        ? `${file}: holds one conversation; --trajectory ${trajectory} names none (leave it out, or give 1).`
        : `${file}: holds ${how}${names}; --trajectory ${trajectory} is none of ${seen.count === 1 ? 'it' : 'them'}. ` +
            `Give ${seen.count === 1 ? '1' : `a number from 1 to ${seen.count}`}, or ${seen.count === 1 ? 'its id' : 'one of the ids'}.`,
      { file, field: '--trajectory', conversations: seen.count },
    );
  if (trajectory === undefined && seen.count > 1)
    log(
      `${file} holds ${how}${names}; replayed the first (${seen.picked?.id ?? '1'}) into session ` +
        `${sessionId}. Pick another with --trajectory N (1-${seen.count}) or --trajectory ID.`,
    );
}
