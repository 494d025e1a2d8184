/**
 * Version detection. Tokens: `v1.2.3`/`v2`, three- or four-part numbers with optional
 * pre-release/build (`2.0.0-rc.1`, `3.0.0+build.5`, `^8.3.8`), `pkg@20` / `@scope/pkg@1.2.3`,
 * pip pins (`django==4.2.7`) and image tags (`node:20-alpine`, `acme/api:1.4.2`). Phrases:
 * a known product or the word `version` followed by a number (`Python 3.11`, `version 4`).
 * Bare two-part numbers (`3.14`) are never versions.
 */
import type { Candidate } from './candidate.js';
import { isLetterCode } from './char-classes.js';

const V_PREFIXED = /^v\d+(?:\.\d+)*(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;
const SEMVER = /^[\^~]?\d+\.\d+\.\d+(?:\.\d+)?(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;
const AT_VERSION = /^(?:@[\w.-]+\/)?[A-Za-z0-9][\w.-]*@[\^~]?\d[\w.+-]*$/;
const PIP_PIN = /^[A-Za-z][\w.-]*(?:==|>=|<=|~=)\d[\w.]*$/;
const IMAGE_TAG = /^([a-z][\w.-]+(?:\/[\w.-]+)*):\d{1,3}(?:[.-][\w.-]*)?$/;
const NOT_IMAGES: ReadonlySet<string> = new Set(
  'line col column page step port id pid row chapter item version build rev v'.split(' '),
);

const PRODUCTS: ReadonlySet<string> = new Set(
  (
    'Python python Node Node.js npm pnpm yarn TypeScript typescript Go Rust rustc Ruby Java JDK PHP Postgres ' +
    'PostgreSQL postgres MySQL Redis Django Rails React Vue Angular Next.js Ubuntu Debian Alpine Kubernetes kubectl ' +
    'Docker Terraform Chrome Firefox Safari iOS Android macOS Windows Helm Vite Vitest Jest pytest Deno Bun Electron ' +
    'Spring Kafka Elasticsearch MongoDB SQLite Nginx nginx GCC gcc clang LLVM CUDA PyTorch TensorFlow Version version'
  ).split(' '),
);
const PRODUCT_NUMBER = /^v?\d+(?:\.\d+)*(?:-[0-9A-Za-z.]+)?$/;

/** True when the whole (trimmed) token is a version. */
export function isVersionToken(token: string): boolean {
  // each pattern runs only on a token that can hold it (`v` first; a dot; `=`): a short text's tokens rarely do
  if (token.charCodeAt(0) === 118 && V_PREFIXED.test(token)) return true;
  if (token.includes('.') && SEMVER.test(token)) return true;
  if (token.includes('=') && PIP_PIN.test(token)) return true;
  if (token.includes('@')) return AT_VERSION.test(token);
  const image = token.includes(':') ? IMAGE_TAG.exec(token) : null;
  return image !== null && !NOT_IMAGES.has(image[1] ?? '');
}

function isWordOrDot(code: number): boolean {
  return isLetterCode(code) || code === 46;
}

/**
 * Finds `Product 1.2` / `version 4` where the numeric token `[start, end)` follows a known
 * product name or the word version; returns whether it pushed a candidate.
 */
export function matchProductVersionAt(text: string, start: number, end: number, out: Candidate[]): boolean {
  if (text[start - 1] !== ' ') return false;
  let wordStart = start - 1;
  while (wordStart > 0 && isWordOrDot(text.charCodeAt(wordStart - 1))) wordStart--;
  if (!PRODUCTS.has(text.slice(wordStart, start - 1)) || !PRODUCT_NUMBER.test(text.slice(start, end))) return false;
  if (wordStart > 0 && /[\w.-]/.test(text[wordStart - 1] ?? '')) return false;
  out.push({ kind: 'version', start: wordStart, end });
  return true;
}
