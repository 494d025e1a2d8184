import type { Handle } from '../types.js';

const MARKUP_ATTRIBUTE =
  /^(?:class|className|style|data-[\w-]+|aria-[\w-]+|phx-[\w-]+|v-[\w-]+|x-[\w-]+|on[a-z]+|tabindex|role|xmlns(?::\w+)?)=["'{]/;
/** A config-shaped line whose value is code: an atom (`:user`), a member of a variable (`ann.id`), a call (`now()`). */
const CODE_VALUE = /^[A-Za-z_][\w-]*\s*(?::|=)\s*(?::[a-z_]\w*|[a-z_]\w*(?:\.[A-Za-z_]\w*)+|[\w.]+\(\))$/;
/**
 * A field of code or data set to a bare literal: `filter_start_row: nil`, `"banner_dismissed": false`,
 * `hasConflicts = true`, `items: []`. It names no value a reader can act on; a setting written `KEY=value`
 * (`DEBUG=false`, `force=true`) is not this shape and stays.
 */
const LITERAL_FIELD =
  /^["']?[A-Za-z_][\w-]*["']?(?::\s*| = )(?:nil|null|None|undefined|true|false|True|False|\[\]|\{\}|""|'')$/;
/**
 * A format string's field (`alpha=%d`, `ID=%s`, `ratio=%.2f`, `name={}`) or a one-letter variable of code (`b = 2`,
 * `y = 2`): the value is filled in at run time or the name says nothing.
 */
const PLACEHOLDER_FIELD =
  /^[A-Za-z_][\w.-]*\s*[=:]\s*(?:%[-+ #0]*\d*(?:\.\d+)?[a-zA-Z]|\{\w*(?::[^}]*)?\})["']?$|^[a-z] = /;
const CSS_COLOUR = /^#(?:[0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/;
const STYLE_PROPERTY = '[\\w-]*(?:color|background|border|margin|padding|font[\\w-]*|width|height)';
const STYLE_VALUE = new RegExp(
  `^${STYLE_PROPERTY}:\\s*(?:#[0-9a-fA-F]{3,8}|-?\\d+(?:\\.\\d+)?(?:px|em|rem|vh|vw|%)|rgba?\\()`,
  'i',
);

/** A style sheet's declaration, closed by its semicolon: `margin-bottom: 2px;`, `cursor: pointer;`. */
const STYLE_DECLARATION = /^[a-z]+(?:-[a-z]+)*:\s*[^;{}:]+;$/;
/**
 * A field of printed JSON whose value names nothing to look up: a word or words (`"event_kind": "RunStarted"`,
 * `"type": "command"`) or a small count (`"count": 1`). A value with a digit, a path or an id (`"session_id": "2026-…"`,
 * `"path": "cmd/x.go"`) is not this shape and stays.
 */
const JSON_WORD_FIELD = /^"[\w.-]+":\s*(?:"[A-Za-z][A-Za-z_ ]{0,40}"|\d{1,2})$/;
/** A count of one with a plural noun (`1 messages`, `1 files`): a template's tally, printed whatever it counts. */
const TEMPLATE_COUNT = /^1 [a-z]{3,}s$/;

/** Markup a reader throws away: an HTML attribute, a CSS colour, a style value or declaration. */
export function looksLikeMarkup(handle: Pick<Handle, 'text'>): boolean {
  const { text } = handle;
  return MARKUP_ATTRIBUTE.test(text) || CSS_COLOUR.test(text) || STYLE_VALUE.test(text) || STYLE_DECLARATION.test(text);
}

/** Whether a handle text looks like extraction noise rather than a discriminator (markup is noise too). */
export function looksLikeNoise(handle: Pick<Handle, 'kind' | 'text'>): boolean {
  const { text } = handle;
  if (text.trim().length <= 2) return true;
  if (looksLikeMarkup(handle)) return true;
  if (
    handle.kind === 'assignment' &&
    (CODE_VALUE.test(text) || LITERAL_FIELD.test(text) || PLACEHOLDER_FIELD.test(text) || JSON_WORD_FIELD.test(text))
  )
    return true;
  if (handle.kind === 'number' && TEMPLATE_COUNT.test(text)) return true;
  if (handle.kind === 'assignment' && /=\\?["']?$/.test(text)) return true;
  if (
    handle.kind === 'path' &&
    /^\/[A-Za-z][A-Za-z0-9]{0,9}$/.test(text) &&
    !/^\/(tmp|etc|usr|var|opt|home|bin|dev|srv)$/.test(text)
  )
    return true;
  return !/[A-Za-z0-9]/.test(text);
}

/**
 * A tool's reading of elapsed time (`13.633s`, `0.391s`, `7564ms`, `(3.33s)`): a test runner or a build prints one per
 * run or per test, and none says what it timed once it stands alone in the index.
 */
export function looksLikeTiming(handle: Pick<Handle, 'kind' | 'text'>): boolean {
  return handle.kind === 'number' && /^\(?\d+(?:\.\d+)?\s?(?:ms|s|µs|us|ns)\)?$/.test(handle.text);
}
