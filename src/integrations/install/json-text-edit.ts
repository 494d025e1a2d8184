/**
 * Text-level edits of a JSON configuration file: the text is parsed into a tree of offsets
 * (`jsonc-parser`), and install inserts or removes only the bytes of its own entries. Every
 * other byte — numbers such as `12345678901234567890` or `1.50`, key order, one-line arrays,
 * indentation, CRLF line ends, a missing final newline — stays as it was. What is inserted
 * follows the container it goes into: a multi-line container gets a new line in the
 * indentation of its last member, a one-line container a one-line entry in its own spacing.
 * A removal takes out exactly what such an insertion added, so install then uninstall gives
 * back the original text even without a backup.
 */
import { createScanner, findNodeAtLocation, parseTree, printParseErrorCode } from 'jsonc-parser';
import type { Node, ParseError } from 'jsonc-parser';
import { InvalidInputError } from '../../errors.js';

/** The scanner's token kinds this module reads (`jsonc-parser`'s `SyntaxKind`, a const enum it declares). */
const SyntaxKind = { LineCommentTrivia: 12, BlockCommentTrivia: 13, LineBreakTrivia: 14, Trivia: 15, EOF: 17 } as const;

/** A path into a JSON document: property names and array indexes. */
export type JsonPath = readonly (string | number)[];

/** A JSON object value. */
export type JsonObject = Record<string, unknown>;

/** True for a plain JSON object. */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A parsed configuration text: its text and its tree (undefined: blank or absent). */
export interface JsonText {
  readonly file: string;
  readonly text: string;
  readonly root: Node | undefined;
}

/** 1-based line of an offset. */
function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let index = 0; index < offset && index < text.length; index++) if (text.charCodeAt(index) === 10) line++;
  return line;
}

/** The first comment of a text, if any (its offset). */
function firstComment(text: string): number | undefined {
  const scanner = createScanner(text, false);
  for (let kind = scanner.scan(); kind !== SyntaxKind.EOF; kind = scanner.scan())
    if (kind === SyntaxKind.LineCommentTrivia || kind === SyntaxKind.BlockCommentTrivia)
      return scanner.getTokenOffset();
  return undefined;
}

/**
 * Parse a configuration file's text (absent or blank: no tree). Anything but one JSON object is
 * refused, naming the file and line, and the file is left as it is. `reader` names the program
 * that reads the file: comments are refused because it does not accept them (the message says so).
 */
export function parseJsonText(file: string, text: string | undefined, reader: string): JsonText {
  if (text === undefined || text.trim().length === 0) return { file, text: text ?? '', root: undefined };
  const comment = firstComment(text);
  if (comment !== undefined)
    throw new InvalidInputError(
      `${file} line ${lineOf(text, comment)} has a comment; ${reader} reads this file as plain JSON and does not accept ` +
        'comments. Remove the comments (or move them elsewhere) and run the command again; nothing was changed.',
      { file, line: lineOf(text, comment) },
    );
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { allowTrailingComma: false, disallowComments: true });
  const error = errors[0];
  if (error)
    throw new InvalidInputError(
      `${file} line ${lineOf(text, error.offset)} is not valid JSON (${printParseErrorCode(error.error)}); ` +
        'fix it first — nothing was changed.',
      { file, line: lineOf(text, error.offset) },
    );
  if (root?.type !== 'object')
    throw new InvalidInputError(`${file} does not hold a JSON object; nothing was changed.`, { file });
  return { file, text, root };
}

/** The node at a path, if present. */
export function nodeAt(document: JsonText, path: JsonPath): Node | undefined {
  return document.root ? findNodeAtLocation(document.root, [...path]) : undefined;
}

/** The indentation unit of a text: that of its first indented line (default two spaces). */
function indentUnit(text: string): string {
  return /\n([ \t]+)\S/.exec(text)?.[1] ?? '  ';
}

/** The line end of a text: CRLF when its first line end is one. */
function lineEnd(text: string): string {
  const first = text.indexOf('\n');
  return first > 0 && text[first - 1] === '\r' ? '\r\n' : '\n';
}

/** Leading whitespace of the line holding an offset. */
function lineIndent(text: string, offset: number): string {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(start))?.[0] ?? '';
}

/** True when only spaces or tabs stand between the line start and the offset. */
function startsLine(text: string, offset: number): boolean {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*$/.test(text.slice(start, offset));
}

/** One-line JSON, spaced (`{ "a": 1, "b": [1, 2] }`) or compact (`{"a":1,"b":[1,2]}`). */
function oneLine(value: unknown, spaced: boolean): string {
  if (Array.isArray(value)) return `[${value.map((item) => oneLine(item, spaced)).join(spaced ? ', ' : ',')}]`;
  if (isJsonObject(value)) {
    const members = Object.entries(value).map(
      ([key, item]) => `${JSON.stringify(key)}:${spaced ? ' ' : ''}${oneLine(item, spaced)}`,
    );
    if (members.length === 0) return '{}';
    return spaced ? `{ ${members.join(', ')} }` : `{${members.join(',')}}`;
  }
  return JSON.stringify(value);
}

/** Multi-line JSON in the file's indentation and line end, its later lines under `base`. */
function multiLine(value: unknown, unit: string, eol: string, base: string): string {
  return JSON.stringify(value, null, unit)
    .split('\n')
    .map((line, index) => (index === 0 ? line : base + line))
    .join(eol);
}

/** The text of a new member (`"key": value` in an object, `value` in an array). */
function memberText(
  key: string | undefined,
  value: unknown,
  layout: (value: unknown) => string,
  spaced: boolean,
): string {
  return key === undefined ? layout(value) : `${JSON.stringify(key)}:${spaced ? ' ' : ''}${layout(value)}`;
}

/** Where a member that ends at `offset` is followed by a comment on its line, the end of that comment. */
function endOfLineAfter(text: string, offset: number): number {
  const scanner = createScanner(text, false);
  scanner.setPosition(offset);
  let end = offset;
  for (let kind = scanner.scan(); ; kind = scanner.scan()) {
    if (kind === SyntaxKind.Trivia) continue;
    if (kind === SyntaxKind.LineCommentTrivia || kind === SyntaxKind.BlockCommentTrivia) {
      end = scanner.getTokenOffset() + scanner.getTokenLength();
      continue;
    }
    return end;
  }
}

/**
 * Insert a member at the end of the container at `path` (an object: `key` required; an array:
 * no key). Returns the new text. The container must exist.
 */
export function insertMember(document: JsonText, path: JsonPath, key: string | undefined, value: unknown): string {
  const { text } = document;
  const container = path.length === 0 ? document.root : nodeAt(document, path);
  if (!container) throw new Error(`insertMember: no container at ${path.join('.')}`);
  const unit = indentUnit(text);
  const eol = lineEnd(text);
  const members = container.children ?? [];
  const last = members[members.length - 1];
  const open = container.offset;
  const close = container.offset + container.length - 1;
  const spaced = /[:,] /.test(text.slice(open, close + 1)) || (members.length === 0 && /": /.test(text));
  if (last) {
    const end = last.offset + last.length;
    if (startsLine(text, last.offset) && lineOf(text, last.offset) !== lineOf(text, open)) {
      const indent = lineIndent(text, last.offset);
      const member = memberText(key, value, (item) => multiLine(item, unit, eol, indent), true);
      const after = endOfLineAfter(text, end);
      return `${text.slice(0, end)},${text.slice(end, after)}${eol}${indent}${member}${text.slice(after)}`;
    }
    const member = memberText(key, value, (item) => oneLine(item, spaced), spaced);
    return `${text.slice(0, end)},${spaced ? ' ' : ''}${member}${text.slice(end)}`;
  }
  if (!text.includes('\n'))
    return `${text.slice(0, open + 1)}${memberText(key, value, (item) => oneLine(item, spaced), spaced)}${text.slice(close)}`;
  const outer = lineIndent(text, open);
  const inner = outer + unit;
  const member = memberText(key, value, (item) => multiLine(item, unit, eol, inner), true);
  return `${text.slice(0, open + 1)}${eol}${inner}${member}${eol}${outer}${text.slice(close)}`;
}

/**
 * Remove the member at `path` (a property or an array element): the reverse of
 * {@link insertMember} — from the end of the member before it (or, for the first member, up to
 * the next one; for the only member, the whole inside of the container).
 */
export function removeMember(document: JsonText, path: JsonPath): string {
  const { text } = document;
  const target = nodeAt(document, path);
  if (!target) return text;
  const member = target.parent?.type === 'property' ? target.parent : target;
  const container = member.parent;
  if (!container) throw new Error('removeMember: the root cannot be removed');
  const siblings = container.children ?? [];
  const index = siblings.indexOf(member);
  const previous = siblings[index - 1];
  const next = siblings[index + 1];
  if (previous) return text.slice(0, previous.offset + previous.length) + text.slice(member.offset + member.length);
  if (next) return text.slice(0, member.offset) + text.slice(next.offset);
  return text.slice(0, container.offset + 1) + text.slice(container.offset + container.length - 1);
}

/** The tokens of a text, whitespace and line ends left out (comments kept, numbers as written). */
function tokens(text: string): string[] {
  const scanner = createScanner(text, false);
  const out: string[] = [];
  for (let kind = scanner.scan(); kind !== SyntaxKind.EOF; kind = scanner.scan())
    if (kind !== SyntaxKind.Trivia && kind !== SyntaxKind.LineBreakTrivia)
      out.push(scanner.getTokenValue() + ' ' + String(kind));
  return out;
}

/**
 * True when two texts differ only in whitespace and line ends: same members, same order, same
 * number spellings, same comments. Uninstall restores the backed-up original bytes only then.
 */
export function sameJsonTokens(a: string, b: string): boolean {
  const left = tokens(a);
  const right = tokens(b);
  return left.length === right.length && left.every((token, index) => token === right[index]);
}
