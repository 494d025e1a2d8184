import { z } from 'zod';
import type { TranscriptMessage } from '../ingest/messages.js';
import { jsonOrText } from './json-text.js';

const contentPart = z.union([
  z.object({ type: z.literal('text'), text: z.string() }).loose(),
  z.object({ type: z.string() }).loose(),
]);

/** An OpenAI-style chat message as found in transcripts. */
export const openAiMessageSchema = z
  .object({
    role: z.enum(['system', 'developer', 'user', 'assistant', 'tool', 'function']),
    content: z.union([z.string(), z.array(contentPart), z.null()]).optional(),
    tool_calls: z
      .array(
        z
          .object({
            id: z.string(),
            type: z.string().optional(),
            function: z
              .object({ name: z.string(), arguments: z.union([z.string(), z.record(z.string(), z.unknown())]) })
              .loose(),
          })
          .loose(),
      )
      .nullish(),
    tool_call_id: z.string().nullish(),
    name: z.string().nullish(),
  })
  .loose();

/** Parsed shape of an OpenAI-style message. */
export type OpenAiMessage = z.infer<typeof openAiMessageSchema>;

function textOf(content: OpenAiMessage['content']): string {
  if (typeof content === 'string') return content;
  if (!content) return '';
  return content
    .map((part) => ('text' in part && typeof part.text === 'string' ? part.text : `[${part.type}]`))
    .join('\n');
}

/** Convert a parsed OpenAI-style message to a transcript message. */
export function fromOpenAiMessage(message: OpenAiMessage, label?: string): TranscriptMessage {
  const role = message.role === 'developer' ? 'system' : message.role === 'function' ? 'tool' : message.role;
  return {
    role,
    content: textOf(message.content),
    toolCalls: message.tool_calls?.map((call) => ({
      id: call.id,
      name: call.function.name,
      arguments: jsonOrText(call.function.arguments),
    })),
    toolCallId: role === 'tool' ? (message.tool_call_id ?? message.name ?? 'unknown') : undefined,
    toolName: role === 'tool' ? (message.name ?? undefined) : undefined,
    label,
  };
}

/**
 * Whether a person wrote an OpenAI-style message in its role (see provenance.ts): a `user` message is the user's
 * words and a `system` / `developer` message is the system prompt the application's author wrote, unless it carries a
 * `tool_call_id` (a tool's output a client placed in that role). Assistant and tool messages keep their own source.
 */
export function isOpenAiAffirmed(message: OpenAiMessage): boolean {
  return message.tool_call_id == null;
}

/** Describe a zod error as `field: problem` for messages that name the field. */
export function describeIssues(error: z.ZodError): { field: string; problem: string } {
  const issue = error.issues[0];
  const field = issue ? issue.path.map(String).join('.') || '(root)' : '(root)';
  return { field, problem: issue?.message ?? 'invalid' };
}
