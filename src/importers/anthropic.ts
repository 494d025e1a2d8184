/**
 * Anthropic Messages API JSON: a request body `{system?, messages: [...]}` or a bare array of
 * messages `{role: 'user' | 'assistant', content: string | blocks}`. Blocks follow
 * `anthropic-blocks.ts` (text, tool_use, tool_result; thinking left out). Labels are
 * `FILE#INDEX` (`FILE#system` for the system prompt). The file is read whole.
 *
 * Provenance (see provenance.ts): a Messages API body has no harness of its own. The top-level `system` is the system
 * prompt the application's author wrote, and the text of a `user` message is the user's words (both affirmed);
 * `tool_result` blocks are tool results. An application that puts other text in the user role says so by not using
 * this format for it (or by appending it with a `source`).
 */
import { z } from 'zod';
import type { FormatProvenance, ImportedEvent, ImportOptions } from './events.js';
import { blocksText, convertAnthropicContent, isAnthropicContent } from './anthropic-blocks.js';
import type { AnthropicContent } from './anthropic-blocks.js';
import { detectAnthropic } from './detect.js';
import { recordError, readJsonFile, zodRecordError } from './json-file.js';
import { skipOrThrow } from './jsonl-lines.js';
import { defineImporter, typedMessage } from './provenance.js';

const bodySchema = z.union([
  z.array(z.unknown()),
  z
    .object({ system: z.custom<AnthropicContent>(isAnthropicContent).nullish(), messages: z.array(z.unknown()) })
    .loose(),
]);
const messageSchema = z.object({ role: z.enum(['user', 'assistant']), content: z.unknown() }).loose();

async function* readImported(file: string, options: ImportOptions): AsyncGenerator<ImportedEvent> {
  const body = bodySchema.safeParse(await readJsonFile(file, options));
  if (!body.success) {
    throw recordError(
      file,
      '(root)',
      'messages',
      'expected an array of messages or an object with a "messages" array (and an optional "system")',
    );
  }
  const messages = Array.isArray(body.data) ? body.data : body.data.messages;
  const system = Array.isArray(body.data) ? undefined : body.data.system;
  if (system !== undefined && system !== null) {
    yield typedMessage({ role: 'system', content: blocksText(system), label: `${file}#system` });
  }
  const toolNames = new Map<string, string>();
  for (const [index, value] of messages.entries()) {
    const where = `messages[${index}]`;
    const parsed = messageSchema.safeParse(value);
    if (!parsed.success) {
      skipOrThrow(zodRecordError(file, where, parsed.error), options);
      continue;
    }
    const converted = convertAnthropicContent(parsed.data.role, parsed.data.content, `${file}#${index}`, toolNames);
    if ('field' in converted) {
      skipOrThrow(recordError(file, where, converted.field, converted.problem), options);
      continue;
    }
    for (const message of converted.messages) yield typedMessage(message);
  }
}

/** What a person wrote in an Anthropic Messages body. */
const provenance: FormatProvenance = {
  typed: ['the top-level `system` prompt', 'text blocks of `user` messages'],
  quoted: [],
};

/** Importer of Anthropic Messages API JSON (request body or message array). */
export const anthropicImporter = defineImporter({
  format: 'anthropic',
  provenance,
  detect: detectAnthropic,
  readImported,
});
