/**
 * An artifact check for stored handles, written independently of the extractor (it uses
 * none of its helpers): a handle is an artifact when it starts or ends inside a word of the
 * surrounding text, ends in a backslash, holds a terminal escape or a JSON string escape, is
 * (or holds) a markup tag, holds or follows a line-number gutter, or is a URL cut at a
 * `${…}` template placeholder.
 */

/** One stored span in transcript order, with the text of its neighbouring chunks. */
export interface CheckedSpan {
  /** The span text. */
  readonly text: string;
  /** The previous chunk of the same message, or '' when the span starts a message. */
  readonly previous: string;
  /** The next chunk of the same message, or ''. */
  readonly next: string;
}

/** A handle as stored. */
export interface CheckedHandle {
  readonly kind: string;
  readonly text: string;
  readonly start: number;
  readonly end: number;
}

const WORD = /^[A-Za-z0-9_]$/;
// Written escapes as they appear in stored text: JSON escapes (a doubly escaped `\\\\n` is JSON quoting source code's `\\n`)
// and terminal sequences (raw ESC or spelled out).
const ESCAPES =
  // eslint-disable-next-line no-control-regex -- ESC is what the check looks for
  /\\\\[nrt]|\\(?:u[0-9a-fA-F]{4}|["\\/bfnrt])|(?:\u001b|\\u001[bB]|\\x1[bB]|\\033)\[[0-9;?]*[ -/]*[@-~]/g;
// eslint-disable-next-line no-control-regex -- ESC is what the check looks for
const TERMINAL = /\u001b|\\u001[bB]|\\x1[bB]|\\033\[/;
// eslint-disable-next-line no-control-regex -- ESC is what the check looks for
const TERMINAL_BEFORE = /(?:\u001b|\\u001[bB]|\\x1[bB]|\\033)\[[0-9;?]*$/;
const TAG_INSIDE = /<\/?[A-Za-z][\w:.-]*(?:\s[^<>]*)?\/?>/;
const JSON_QUOTE_OR_BACKSLASH = /\\["\\]|\\u[0-9a-fA-F]{4}/;
const JSON_CONTROL = /\\[nrt]/;
const DRIVE = /(?:^|[^A-Za-z])[A-Za-z]:\\[^\\]/;
const GUTTER = /^[ \t]*\d+(?:→|\t)/m;

/** Where written escapes start and end in `text`, scanned left to right. */
function escapeEdges(text: string): { starts: Set<number>; ends: Set<number> } {
  const starts = new Set<number>();
  const ends = new Set<number>();
  for (const match of text.matchAll(ESCAPES)) {
    starts.add(match.index);
    ends.add(match.index + match[0].length);
  }
  return { starts, ends };
}

/** The artifacts of one handle (empty when it is clean). */
export function handleArtifacts(span: CheckedSpan, handle: CheckedHandle, edges = escapeEdges(span.text)): string[] {
  const found: string[] = [];
  const { text } = handle;
  const source = span.text;
  if (source.slice(handle.start, handle.end) !== text) found.push('not-a-slice');
  const before = handle.start === 0 ? span.previous.slice(-1) : (source[handle.start - 1] ?? '');
  const after = handle.end === source.length ? span.next.slice(0, 1) : (source[handle.end] ?? '');
  if (WORD.test(before) && WORD.test(text[0] ?? '') && !edges.ends.has(handle.start)) found.push('starts-in-word');
  if (WORD.test(after) && WORD.test(text[text.length - 1] ?? '') && !edges.starts.has(handle.end))
    found.push('ends-in-word');
  if (text.endsWith('\\')) found.push('ends-with-backslash');
  if (TERMINAL.test(text) || TERMINAL_BEFORE.test(source.slice(Math.max(0, handle.start - 12), handle.start)))
    found.push('terminal-escape');
  if (before === '<' && /^\/[A-Za-z][\w:.-]*$/.test(text)) found.push('tag-closer');
  if (TAG_INSIDE.test(text)) found.push('tag-inside');
  if (JSON_QUOTE_OR_BACKSLASH.test(text) || (JSON_CONTROL.test(text) && !DRIVE.test(text))) found.push('json-escape');
  if (GUTTER.test(text)) found.push('gutter-inside');
  if (text.endsWith('$') && after === '{') found.push('template-cut');
  if (handle.kind === 'constraint') {
    const lineStart = source.lastIndexOf('\n', handle.start - 1) + 1;
    if (GUTTER.test(source.slice(lineStart, handle.start + 1))) found.push('constraint-in-dump');
  }
  return found;
}

/** Every artifact of the handles of one span, as `artifact kind:"text"` lines. */
export function spanArtifacts(span: CheckedSpan, handles: readonly CheckedHandle[]): string[] {
  const edges = escapeEdges(span.text);
  return handles.flatMap((handle) =>
    handleArtifacts(span, handle, edges).map((artifact) => `${artifact} ${handle.kind}:${JSON.stringify(handle.text)}`),
  );
}
