import { ESCAPE } from '../text/control-characters.js';
import { isUnclean } from './sentences.js';

/** A line that reports an error: an exception name, an `error:`/`fatal:` lead, a failure count, a non-zero exit. */
const ERROR_LINE = [
  /\b[A-Z][A-Za-z]*(Error|Exception|Failure)\b/,
  /\b(ERROR|FATAL|CRITICAL|PANIC|FAILED|FAIL)\b/,
  /^(error|fatal|panic|failed|failure|err!?)\b\s*[:[(!-]?/i,
  /\b(error|fatal|failed)\s*(\[[^\]]*\])?\s*:/i,
  /\b[1-9]\d* (failures?|failed|errors?)\b/,
  /\b(exit(ed)?( with)?( code| status)?|returncode)[ :=]+[1-9]\d*\b/i,
  /\bcommand not found\b|\bno such file or directory\b|\bpermission denied\b/i,
];
const ANSI_SEQUENCE = new RegExp(`${ESCAPE}\\[[0-9;?]*[A-Za-z]|${ESCAPE}[()][A-Za-z0-9]|${ESCAPE}`, 'g');

/** An error line of a tool result, verbatim, and where it was seen. */
export interface ErrorLine {
  /** The line, verbatim (the longest piece free of terminal escapes). */
  readonly text: string;
  /** The key that makes two sightings the same error (numbers, times and hex ids removed). */
  readonly key: string;
}

/** A leading error label (`AttributeError: `, `Error: `, `error[E0382]: `): a script re-printing an error keeps the message. */
const ERROR_LABEL = /^(?:[\w.]*(?:error|exception)(?:\[[^\]]*\])?|fatal|e):\s+/i;

/**
 * The same error seen at another time or place has the same key: digits, hex ids and quoted values do not count,
 * nor does the label before the message (`AttributeError: x` and `Error: x` are one error).
 */
export function errorKey(line: string): string {
  return line
    .replace(ERROR_LABEL, '')
    .toLowerCase()
    .replace(/0x[0-9a-f]+|\b[0-9a-f]{8,}\b/g, '#')
    .replace(/\d+/g, '#')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * The error lines of a tool result, verbatim: lines that match an error shape, with
 * terminal escape codes cut away (the longest escape-free piece is kept), free of markup
 * and JSON escapes, 8 to `maxChars` characters long. A line cut at the end of the text (a
 * chunk boundary) is not a candidate unless the text is a single line.
 */
export function errorLines(text: string, maxChars: number): ErrorLine[] {
  const lines = text.split('\n');
  const found: ErrorLine[] = [];
  lines.forEach((rawLine, index) => {
    if (index === lines.length - 1 && lines.length > 1 && !text.endsWith('\n') && rawLine.length > 80) return;
    const pieces = rawLine.split(ANSI_SEQUENCE).map((piece) => piece.replace(/<\/?[a-z_]+>/gi, ' ').trim());
    const line = pieces.sort((a, b) => b.length - a.length)[0] ?? '';
    if (line.length < 8 || line.length > maxChars || !rawLine.includes(line)) return;
    if (!ERROR_LINE.some((pattern) => pattern.test(line)) || isUnclean(line) || !/[A-Za-z]{3,}/.test(line)) return;
    if (
      /^(\d+\s*(→|\t)|\d+[.)]\s|[-*•]\s|[|{}()<>=#/[\]])/.test(rawLine.trim()) ||
      (line.match(/[A-Za-z ]/g)?.length ?? 0) / line.length < 0.5
    )
      return;
    if (
      /^\d+[-:](?!\d)|^(from|import|raise|except|class|def|return|if|elif|else|try|with|for|while|assert|throw|catch|const|let|var)\b/.test(
        line,
      )
    )
      return;
    if (/^(Traceback \(most recent call last\)|During handling of the above exception)/.test(line)) return;
    found.push({ text: line, key: errorKey(line) });
  });
  return found;
}
