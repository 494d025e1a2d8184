/**
 * The yardstick of the quality benchmark: which identifier-like tokens an agent needed after a
 * cut point, defined by a small fixed rule that shares no code with the library's handle
 * extractor (`src/handles`), so the library is not measured by its own definition of a handle.
 *
 * The rule (see {@link identifierTokens}), applied to text; a token has at least 4 characters:
 * - URL: `scheme://…` up to whitespace, a quote or a bracket;
 * - `KEY=VALUE`: a key of letters, digits, `_`, `.`, `-` (not starting with a digit), `=`, a value
 *   up to whitespace, a quote, a bracket, `,` or `;`;
 * - path: a run of name characters (letters, digits, `_ . ~ @ + -`) and `/` holding at least one
 *   `/` and one letter or digit (`src/a.ts`, `/tmp/x`; a `:12` line suffix is not part of it);
 * - identifier: a run of letters, digits, `_ . -` holding a letter and a digit or an inner
 *   `_ . -` separator (`eu-west-2b`, `handle_budget`, `README.md`, `v20`), which covers hex ids of
 *   7+ characters with a digit and a letter (`a3f9c21`).
 * Trailing `. , : ; ! ?` and separators are not part of a token.
 *
 * A *future-needed handle* at a cut is a token by this rule that the agent wrote after the cut
 * (assistant text, and the string values of its tool-call arguments) and that appears verbatim
 * (as a substring) anywhere in the transcript before the cut (any role: text, tool-call arguments).
 */
import type { TranscriptMessage } from '../../src/ingest/messages.js';

/** Shortest token the rule yields. */
export const MIN_TOKEN_LENGTH = 4;

const URL = String.raw`[A-Za-z][A-Za-z0-9+.-]*:\/\/[^\s"'\x60<>()\[\]{}]+`;
const KEY_VALUE = String.raw`[A-Za-z_][A-Za-z0-9_.-]*=[^\s"'\x60<>()\[\]{},;=]+`;
const PATH = String.raw`[A-Za-z0-9_.~@+-]*\/[A-Za-z0-9_.~@+\/-]*`;
const WORD = String.raw`[A-Za-z0-9_][A-Za-z0-9_.-]*`;
const CANDIDATE = new RegExp(`${URL}|${KEY_VALUE}|${PATH}|${WORD}`, 'g');
const TRAILING = /[.,:;!?_-]+$/;

function keep(token: string): boolean {
  if (token.length < MIN_TOKEN_LENGTH) return false;
  if (/^[A-Za-z][A-Za-z0-9+.-]*:\/\/./.test(token) || token.includes('=')) return true;
  if (token.includes('/')) return /[A-Za-z0-9]/.test(token);
  if (!/[A-Za-z]/.test(token)) return false;
  return /[0-9]/.test(token) || /[A-Za-z0-9][_.-]+[A-Za-z0-9]/.test(token);
}

/** Distinct identifier-like tokens of `text` by the rule above, in order of first occurrence. */
export function identifierTokens(text: string): string[] {
  const found = new Set<string>();
  for (const match of text.matchAll(CANDIDATE)) {
    const token = match[0].replace(TRAILING, '');
    if (keep(token)) found.add(token);
  }
  return [...found];
}

function stringValues(value: unknown, into: string[]): void {
  if (typeof value === 'string') into.push(value);
  else if (Array.isArray(value)) for (const item of value) stringValues(item, into);
  else if (typeof value === 'object' && value !== null)
    for (const item of Object.values(value)) stringValues(item, into);
}

/** The string values of a tool call's JSON arguments (the raw text when it is not JSON). */
export function argumentStrings(argumentsText: string): string[] {
  try {
    const values: string[] = [];
    stringValues(JSON.parse(argumentsText) as unknown, values);
    return values;
  } catch {
    return [argumentsText];
  }
}

/** What the agent itself wrote in a message: assistant text and tool-call argument strings (nothing for other roles). */
export function agentWritten(message: TranscriptMessage): string[] {
  if (message.role !== 'assistant') return [];
  return [message.content, ...(message.toolCalls ?? []).flatMap((call) => argumentStrings(call.arguments))];
}

/** All text of a message as it appears in the transcript: content, tool-call arguments raw and as strings. */
export function transcriptText(message: TranscriptMessage): string {
  const calls = (message.toolCalls ?? []).flatMap((call) => [
    call.name,
    call.arguments,
    ...argumentStrings(call.arguments),
  ]);
  return [message.content, ...calls].join('\n');
}

/** The future-needed handles at `cut` (messages `[0, cut)` are before it), distinct, in order of use. */
export function futureNeeded(messages: readonly TranscriptMessage[], cut: number): string[] {
  const before = messages.slice(0, cut).map(transcriptText).join('\n');
  const used = new Set(messages.slice(cut).flatMap(agentWritten).flatMap(identifierTokens));
  return [...used].filter((token) => before.includes(token));
}

/** Everything the agent wrote after `cut`, as one text (to test whether a shown handle was used later). */
export function agentTextAfter(messages: readonly TranscriptMessage[], cut: number): string {
  return messages.slice(cut).flatMap(agentWritten).join('\n');
}

/** How many of `handles` are present verbatim in `text`. */
export function countPresent(handles: readonly string[], text: string): number {
  return handles.reduce((sum, handle) => sum + (text.includes(handle) ? 1 : 0), 0);
}
