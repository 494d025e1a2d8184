/**
 * Import paths of standard libraries that hold a `/` but no file extension and no known directory, so the path
 * detector cannot tell them from prose (`before/after`, `and/or`): Go's standard packages (`encoding/json`,
 * `path/filepath`, `log/slog`, `os/exec`) and Node's built-in subpaths (`fs/promises`, `node:fs/promises`). An agent
 * writes them again verbatim in every import block it edits. Packages whose first segment is a MIME top-level type
 * (`image/png`, `text/template`) are left out: those texts are MIME types first.
 */

/** Go standard packages with a `/`, by first segment (the part after it, `/`-joined when nested). */
const GO_STD: Readonly<Record<string, string>> = {
  archive: 'tar zip',
  compress: 'bzip2 flate gzip lzw zlib',
  container: 'heap list ring',
  crypto:
    'aes cipher des dsa ecdh ecdsa ed25519 elliptic hmac md5 rand rc4 rsa sha1 sha256 sha3 sha512 subtle tls x509 hkdf pbkdf2 mlkem',
  database: 'sql sql/driver',
  debug: 'buildinfo dwarf elf gosym macho pe plan9obj',
  encoding: 'ascii85 asn1 base32 base64 binary csv gob hex json pem xml',
  go: 'ast build constant doc format importer parser printer scanner token types version',
  hash: 'adler32 crc32 crc64 fnv maphash',
  index: 'suffixarray',
  io: 'fs ioutil',
  log: 'slog syslog',
  math: 'big bits cmplx rand rand/v2',
  net: 'http http/httptest http/httptrace http/httputil http/pprof http/cookiejar mail netip rpc smtp textproto url',
  os: 'exec signal user',
  path: 'filepath',
  regexp: 'syntax',
  runtime: 'debug pprof trace cgo metrics',
  sync: 'atomic',
  testing: 'fstest iotest quick slogtest synctest',
  time: 'tzdata',
  unicode: 'utf16 utf8',
};

/** Node built-in modules with a subpath. */
const NODE_SUBPATHS: readonly string[] = [
  'assert/strict',
  'dns/promises',
  'fs/promises',
  'inspector/promises',
  'path/posix',
  'path/win32',
  'readline/promises',
  'stream/consumers',
  'stream/promises',
  'stream/web',
  'timers/promises',
  'util/types',
];

const STD_PACKAGES: ReadonlySet<string> = new Set([
  ...Object.entries(GO_STD).flatMap(([root, rest]) => rest.split(' ').map((sub) => `${root}/${sub}`)),
  ...NODE_SUBPATHS,
  ...NODE_SUBPATHS.map((path) => `node:${path}`),
]);

/** Whether `text` is a standard library import path with a `/` (`encoding/json`, `node:fs/promises`). */
export function isStdPackagePath(text: string): boolean {
  return STD_PACKAGES.has(text);
}
