/**
 * Word lists shared by the detectors: top-level domains, file extensions, known
 * directory names and brand words that look like code symbols but are not.
 */

/** Top-level domains (and internal pseudo-domains) that make `a.b` a hostname. */
export const HOST_TLDS: ReadonlySet<string> = new Set(
  (
    'com net org io dev app ai co me info biz us uk eu de fr nl jp cn in ca au ch se no es it pl ru br ' +
    'gov edu mil cloud tech internal local localdomain lan svc corp example invalid localhost xyz site online tv gg'
  ).split(' '),
);

/** File extensions that make a bare `name.ext` token a path. */
export const FILE_EXTENSIONS: ReadonlySet<string> = new Set(
  (
    'ts tsx js jsx mjs cjs mts cts json jsonl yaml yml toml ini cfg conf env md mdx txt rst csv tsv xml html htm ' +
    'css scss sass less py pyi ipynb rb go rs java kt kts scala c h cc cpp hpp cs swift php pl lua sql sh bash ' +
    'zsh fish ps1 bat cmd exe dll so dylib lock log pdf png jpg jpeg gif svg webp ico zip tar gz tgz bz2 xz whl ' +
    'jar war sqlite sqlite3 db parquet proto graphql gql tf tfvars hcl vue svelte astro gradle mk cmake vim el ' +
    'ex exs erl hs ml clj dart jl nix patch diff pem crt key pub bak tmp out err wasm'
  ).split(' '),
);

/** Dot files recognised as paths on their own. */
export const KNOWN_DOTFILES: ReadonlySet<string> = new Set(
  (
    '.env .git .gitignore .gitattributes .npmrc .nvmrc .bashrc .zshrc .profile .dockerignore .editorconfig ' +
    '.eslintrc .prettierrc .vscode .github .ssh .aws .kube .claude .cursor .venv'
  ).split(' '),
);

/** Directory names that make a two-segment relative token (`src/handles`) a path. */
export const KNOWN_DIRS: ReadonlySet<string> = new Set(
  (
    'src lib test tests spec bin dist build out app apps pkg cmd internal docs scripts config node_modules vendor ' +
    'public static assets include examples packages services tools bench migrations fixtures tmp etc var usr opt ' +
    'home .github .vscode .claude templates components pages routes utils'
  ).split(' '),
);

/** Inner-capital words that are brands or prose, not code symbols. */
export const BRAND_WORDS: ReadonlySet<string> = new Set(
  (
    'JavaScript TypeScript CoffeeScript GitHub GitLab BitBucket PostgreSQL MySQL SQLite MongoDB DynamoDB CouchDB ' +
    'NoSQL GraphQL OpenAI ChatGPT DeepMind YouTube LinkedIn PayPal WhatsApp TikTok PlayStation PowerPoint ' +
    'PowerShell WordPress DevOps MacBook AirPods PhD iPhone iPad iPod iOS iPadOS macOS watchOS tvOS eBay iCloud ' +
    'iTunes vCPU vCPUs McDonald McKinsey LaTeX'
  ).split(' '),
);

/** `Name.js` library names that are neither files nor member accesses. */
export const JS_LIBRARY_NAMES: ReadonlySet<string> = new Set(
  'Node Vue Next Nuxt Express Three Chart D3 Ember Backbone Alpine Solid Nest Deno Ext'.split(' '),
);

/** Uppercase prefixes of `ABC-123` shapes that are standards, not tickets. */
export const NON_TICKET_PREFIXES: ReadonlySet<string> = new Set('UTF ISO SHA MD TLS SSL HTTP IPV'.split(' '));

/**
 * Words that name an issue tracker or one of its items: alone before a tracker key (`linear KAP-342`, `ticket OPS-7`,
 * `jira PAY-12`) one of them says what the key is, as a label of two words would.
 */
export const TRACKER_WORDS: ReadonlySet<string> = new Set(
  'issue ticket story epic bug task card linear jira youtrack shortcut asana clickup'.split(' '),
);

/** Lowercase prefixes of `word-12` shapes that are prose, not ids. */
export const NON_ID_HYPHEN_PREFIXES: ReadonlySet<string> = new Set(
  'utf top covid sha md step day week phase part level tier type year page chapter line round'.split(' '),
);

/**
 * Base forms of verbs that open an instruction ("Use …", "Keep …", "Log …"): the first word of a clause in this
 * set makes the clause an imperative addressed to the reader.
 */
export const IMPERATIVE_VERBS: ReadonlySet<string> = new Set(
  (
    'use run deploy target touch write modify edit change call commit push merge read query connect install restart ' +
    'test apply update delete drop send add remove rename retry skip force rebase reset revert disable enable expose ' +
    'log print store hardcode mock bump upgrade downgrade publish release overwrite kill truncate migrate share ' +
    'upload download paste rotate keep stay stick avoid refrain limit restrict confine cap prefer leave continue ' +
    'ensure remember ask check confirm wait get have let ping talk consult seek stop pause spend work build create ' +
    'open close wrap sign pin respond reply answer email format lint document tag backup back clean cache ' +
    'switch go pick choose put place fetch save load import export copy move handle validate sanitize redact ' +
    'hash encrypt rely depend treat follow affect amend fix match mirror adhere conform squash'
  ).split(' '),
);

/** Words after "No" that make "No …" an interjection ("No worries", "No idea why"), not a ban. */
export const NO_INTERJECTIONS: ReadonlySet<string> = new Set(
  'worries worry problem problems idea way thanks luck doubt matter clue wonder one longer need offense rush pressure'.split(
    ' ',
  ),
);
