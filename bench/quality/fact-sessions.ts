/**
 * Generated sessions for the fact-fidelity benchmark (`fact-fidelity.ts`): coding and ops agent sessions of our own
 * design, long enough to compact several times at 4,000 and 8,000 tokens and at least once at 32,000, each planting
 * facts whose answer the generator knows:
 * - **sibling pairs**: two labelled facts of one family ("the primary region is us-east-2, the failover region
 *   eu-central-1"), said in a user turn, an assistant turn or a config file read by a tool, and repeated later
 *   without their labels, so the bare values alone cannot tell them apart;
 * - **updates**: a labelled value stated early and rebound later in one of the ways people rebind ("now X (was Y)",
 *   "correction: … not …", "rotated from … to …", a diff's removed and added line, a newer read of the same file);
 * - **rules** in many phrasings from the user, and a few quoted from a repository's docs in tool output;
 * - **distractors**: sentences with rule words that state facts, and markup, colours and code in tool output.
 * Values are drawn from a seeded generator, so every run builds the same sessions.
 */
import type { TranscriptMessage } from '../../src/ingest/messages.js';

/** Where a fact was said. */
export type FactSource = 'user' | 'assistant' | 'tool';

/** A labelled value the agent may need later. */
export interface PlantedFact {
  readonly id: string;
  /** Ways the label is written (any one on the value's line binds it). */
  readonly labels: readonly string[];
  readonly value: string;
  readonly source: FactSource;
  /** Index of the message that states it. */
  readonly at: number;
}

/** A label whose value was changed: `oldValue` stated first, `newValue` later. */
export interface PlantedUpdate {
  readonly id: string;
  readonly labels: readonly string[];
  readonly oldValue: string;
  readonly newValue: string;
  /** Index of the message that rebinds it. */
  readonly at: number;
}

/** A rule as said, verbatim. */
export interface PlantedRule {
  readonly text: string;
  readonly source: 'user' | 'tool';
  readonly at: number;
}

/** One generated session and its answer key. */
export interface FactSession {
  readonly id: string;
  readonly messages: readonly TranscriptMessage[];
  readonly facts: readonly PlantedFact[];
  /** Ids of the two facts of each sibling pair. */
  readonly pairs: readonly (readonly [string, string])[];
  readonly updates: readonly PlantedUpdate[];
  readonly rules: readonly PlantedRule[];
  /** Sentences with rule words that are not rules (a pinned one is a false rule). */
  readonly distractors: readonly string[];
}

/** A small seeded generator (mulberry32), so sessions are the same on every run. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

type Random = () => number;
const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
const between = (random: Random, low: number, high: number) => low + Math.floor(random() * (high - low + 1));
const hex = (random: Random, length: number) =>
  Array.from({ length }, () => '0123456789abcdef'.charAt(Math.floor(random() * 16))).join('');

/** A family of two sibling facts: labels and a value maker for each. */
interface Family {
  readonly name: string;
  readonly labels: readonly [readonly string[], readonly string[]];
  value(random: Random, which: 0 | 1): string;
}

const FAMILIES: readonly Family[] = [
  {
    name: 'database',
    labels: [
      ['production database', 'production_database', 'prod database'],
      ['analytics replica', 'analytics_replica'],
    ],
    value: (random, which) =>
      which === 0
        ? `MySQL 8.0.${between(random, 20, 39)}`
        : `Postgres ${between(random, 13, 17)}.${between(random, 1, 9)}`,
  },
  {
    name: 'region',
    labels: [
      ['primary region', 'primary_region'],
      ['failover region', 'failover_region'],
    ],
    value: (random, which) =>
      which === 0
        ? pick(random, ['us-east-2', 'us-west-1', 'ap-south-1', 'ca-central-1'])
        : pick(random, ['eu-central-1', 'eu-west-3', 'ap-northeast-2', 'sa-east-1']),
  },
  {
    name: 'host',
    labels: [
      ['write primary', 'write_primary', 'primary write host'],
      ['read replica', 'read_replica'],
    ],
    value: (random, which) =>
      `db-${which === 0 ? 'rw' : 'ro'}-${between(random, 11, 49)}.${pick(random, ['internal', 'corp'])}`,
  },
  {
    name: 'bucket',
    labels: [
      ['backup bucket', 'backup_bucket'],
      ['artifact bucket', 'artifact_bucket'],
    ],
    value: (random, which) => `s3://acme-${which === 0 ? 'backups' : 'artifacts'}-${hex(random, 4)}`,
  },
  {
    name: 'ticket',
    labels: [
      ['incident ticket', 'incident_ticket', 'incident'],
      ['follow-up ticket', 'follow_up_ticket', 'follow-up'],
    ],
    value: (random, which) => `${which === 0 ? 'INC' : 'OPS'}-${between(random, 1000, 9899)}`,
  },
  {
    name: 'path',
    labels: [
      ['service config', 'service_config'],
      ['migration script', 'migration_script'],
    ],
    value: (random, which) =>
      which === 0
        ? `/etc/${pick(random, ['payments', 'billing', 'ledger'])}/config-${between(random, 2, 9)}.yaml`
        : `db/migrations/${String(between(random, 10, 99)).padStart(4, '0')}_add_${pick(random, ['index', 'column', 'table'])}.sql`,
  },
  {
    name: 'key',
    labels: [
      ['signing key id', 'signing_key_id', 'signing key'],
      ['encryption key id', 'encryption_key_id', 'encryption key'],
    ],
    value: (random, which) => (which === 0 ? `kid_${hex(random, 6)}` : `kms-key-${hex(random, 6)}`),
  },
  {
    name: 'amount',
    labels: [
      ['monthly budget', 'monthly_budget'],
      ['spend so far', 'spend_so_far', 'spent so far'],
    ],
    value: (random, which) =>
      which === 0
        ? `€${between(random, 1, 9)},${between(random, 100, 999)} per month`
        : `$${between(random, 120, 990)} total`,
  },
  {
    name: 'image',
    labels: [
      ['staging image', 'staging_image'],
      ['production image', 'production_image'],
    ],
    value: (random) => `registry.acme.io/payments:2.${between(random, 10, 30)}.${between(random, 0, 9)}`,
  },
];

const snake = (label: string) => label.replace(/[\s-]+/g, '_');

/** A sentence stating both facts of a pair, by who says it. */
function pairText(source: FactSource, family: Family, values: readonly [string, string], random: Random): string {
  const [labelA, labelB] = [family.labels[0][0] as string, family.labels[1][0] as string];
  const [a, b] = values;
  if (source === 'tool')
    return `# ${family.name} settings\n${snake(labelA)}: ${a}\n${snake(labelB)}: ${b}\nlog_level: info\n`;
  if (source === 'assistant')
    return pick(random, [
      `I checked both: the ${labelA} is ${a}, and the ${labelB} is ${b}. I'll keep them apart in the steps below.`,
      `Confirmed from the console: ${labelA} = ${a}; ${labelB} = ${b}.`,
    ]);
  return pick(random, [
    `For context: the ${labelA} is ${a} and the ${labelB} is ${b}.`,
    `Note that our ${labelA} is ${a}, while the ${labelB} is ${b}.`,
    `Quick facts before you start: ${labelA} ${a}, ${labelB} ${b}.`,
  ]);
}

/** An update template: the first statement and the rebinding, with the label's ways of writing. */
interface UpdateTemplate {
  readonly labels: readonly string[];
  values(random: Random): readonly [string, string];
  first(old: string): TranscriptMessage;
  rebind(old: string, next: string): TranscriptMessage;
}

const UPDATES: readonly UpdateTemplate[] = [
  {
    labels: ['DB_HOST', 'read-only checks'],
    values: (random) => {
      const old = between(random, 2, 9);
      return [`db-ro-${old}`, `db-ro-${old + between(random, 4, 9)}`];
    },
    first: (old) => ({ role: 'user', content: `Run the read-only checks against ${old} only (DB_HOST=${old}).` }),
    rebind: (old, next) => ({
      role: 'user',
      content: `Change of plan: switch to DB_HOST=${next}; ${old} is being retired this week.`,
    }),
  },
  {
    labels: ['pool size', 'pool_size'],
    values: (random) => [`${between(random, 20, 45)} connections`, `${between(random, 60, 95)} connections`],
    first: (old) => ({ role: 'assistant', content: `The service runs with a pool size of ${old} right now.` }),
    rebind: (old, next) => ({ role: 'user', content: `We raised the pool size to ${next} (was ${old}).` }),
  },
  {
    labels: ['deploy bucket', 'deploy_bucket'],
    values: (random) => {
      const id = hex(random, 3);
      return [`s3://acme-deploy-us-${id}`, `s3://acme-deploy-eu-${id}`];
    },
    first: (old) => ({ role: 'user', content: `Upload the bundle to the deploy bucket ${old} when it is ready.` }),
    rebind: (old, next) => ({ role: 'user', content: `Correction: the deploy bucket is ${next}, not ${old}.` }),
  },
  {
    labels: ['API key', 'api_key'],
    values: (random) => [`key_${hex(random, 6)}`, `key_${hex(random, 6)}`],
    first: (old) => ({ role: 'assistant', content: `The client is configured with API key ${old}.` }),
    rebind: (old, next) => ({
      role: 'user',
      content: `Security rotated the API key from ${old} to ${next} an hour ago.`,
    }),
  },
  {
    labels: ['TIMEOUT_MS'],
    values: (random) => [String(between(random, 10, 39) * 100), String(between(random, 41, 90) * 100)],
    first: (old) => ({ role: 'tool', toolCallId: '', content: `# .env\nTIMEOUT_MS=${old}\nLOG_FORMAT=json\n` }),
    rebind: (old, next) => ({
      role: 'tool',
      toolCallId: '',
      content: `diff --git a/.env b/.env\n--- a/.env\n+++ b/.env\n@@ -1,2 +1,2 @@\n-TIMEOUT_MS=${old}\n+TIMEOUT_MS=${next}\n LOG_FORMAT=json\n`,
    }),
  },
  {
    labels: ['max_connections', 'max connections'],
    values: (random) => [String(between(random, 100, 190)), String(between(random, 200, 290))],
    first: (old) => ({
      role: 'tool',
      toolCallId: '',
      content: `# postgresql.conf (excerpt)\nmax_connections: ${old}\nshared_buffers: 2GB\n`,
    }),
    rebind: (_old, next) => ({
      role: 'tool',
      toolCallId: '',
      content: `# postgresql.conf (excerpt)\nmax_connections: ${next}\nshared_buffers: 2GB\n`,
    }),
  },
  {
    labels: ['release branch', 'release_branch'],
    values: (random) => {
      const minor = between(random, 10, 30);
      return [`release/2.${minor}`, `release/2.${minor + 1}`];
    },
    first: (old) => ({ role: 'user', content: `Cherry-pick fixes onto the release branch ${old}.` }),
    rebind: (old, next) => ({ role: 'user', content: `The release branch is now ${next} (was ${old}).` }),
  },
  {
    labels: ['dashboard'],
    values: (random) => {
      const id = hex(random, 4);
      return [`grafana.acme.io/d/pay-${id}`, `grafana.acme.io/d/pay-v2-${id}`];
    },
    first: (old) => ({ role: 'assistant', content: `The latency dashboard is at ${old}.` }),
    rebind: (old, next) => ({ role: 'user', content: `The dashboard moved from ${old} to ${next}.` }),
  },
];

/** Rules from the user, in many phrasings; `{x}` is filled with a value of the session. */
const USER_RULES: readonly string[] = [
  'Absolutely never disable TLS verification, not even for a quick test.',
  'Do not print API keys or tokens in the output.',
  'Get Felix to review any change to the schema before merging.',
  'Stop and ask before deleting anything in {bucket}.',
  'No external network calls from the test suite.',
  'Use Python, not JavaScript, for the helper scripts.',
  'Keep spend under $200 this week unless I approve more.',
  'Do not add a second syntax highlighting library; continue with highlight.js.',
  'Under no circumstances run migrations against the write primary during business hours.',
  'Only touch files under src/api and tests/api.',
  'You may push to the staging branch until Friday, but not to main.',
  'Always run the linter before you commit.',
  'Check with me before restarting any pod in the payments namespace.',
  'Never force-push to a shared branch.',
  'Make sure every new endpoint has an integration test.',
  'The {region} cluster is off-limits for load tests.',
  'Avoid touching the legacy billing module; it is frozen until the audit ends.',
  'Please do not open more than one pull request per fix.',
  'Ask for approval from the on-call engineer before scaling the database.',
  'Retries are capped at 3 per request; do not raise the cap without a ticket.',
];

/** Rules in a repository's docs, read by a tool: quoted, never the user's. */
const TOOL_RULES: readonly string[] = [
  'Do not commit generated files under dist/.',
  'Contributors must sign off every commit (git commit -s).',
  'Never run the full integration suite on a laptop; use CI.',
];

/** Sentences with rule words that are facts, questions or narration. */
const DISTRACTORS: readonly string[] = [
  "I don't know why the cache never warmed up overnight.",
  'The nightly job never finished on Tuesday because the runner timed out.',
  "It can't connect to the bastion from this network.",
  'The docs say this flag does not disable caching.',
  'Is it safe to never retry a failed webhook?',
  'I only found two failing tests in the last run.',
];

const SERVICES = ['payments-api', 'billing-worker', 'ledger-sync', 'auth-gateway'];

/** A tool output of ordinary work: logs, listings, test runs, markup and styles. */
function fillerOutput(random: Random, step: number): string {
  const kind = step % 5;
  const lines: string[] = [];
  if (kind === 0) {
    for (let line = 0; line < 28; line++) {
      const service = pick(random, SERVICES);
      lines.push(
        `2026-11-${String(between(random, 10, 28)).padStart(2, '0')}T${String(between(random, 0, 23)).padStart(2, '0')}:` +
          `${String(between(random, 0, 59)).padStart(2, '0')}:12Z ${pick(random, ['INFO', 'INFO', 'WARN', 'DEBUG'])} ${service} ` +
          `request_id=req-${hex(random, 6)} latency_ms=${between(random, 3, 900)} status=${pick(random, [200, 200, 201, 204, 429, 503])}`,
      );
    }
  } else if (kind === 1) {
    for (let line = 0; line < 22; line++)
      lines.push(
        `-rw-r--r-- 1 app app ${between(random, 200, 90000)} Nov ${between(random, 1, 28)} src/${pick(random, ['api', 'jobs', 'lib', 'web'])}/` +
          `${pick(random, ['handler', 'client', 'retry', 'schema', 'view', 'queue'])}_${between(random, 1, 60)}.${pick(random, ['py', 'ts', 'go'])}`,
      );
  } else if (kind === 2) {
    for (let line = 0; line < 18; line++)
      lines.push(
        `tests/test_${pick(random, ['api', 'jobs', 'retry', 'auth'])}_${between(random, 1, 40)}.py::test_case_${between(random, 1, 99)} ` +
          `${pick(random, ['PASSED', 'PASSED', 'PASSED', 'SKIPPED'])}`,
      );
    lines.push(
      `==== ${between(random, 40, 200)} passed, ${between(random, 0, 5)} skipped in ${between(random, 2, 90)}.41s ====`,
    );
  } else if (kind === 3) {
    lines.push('<template>');
    for (let line = 0; line < 10; line++)
      lines.push(
        `  <div class="row row-${between(random, 1, 9)}" data-testid="cell-${between(random, 1, 80)}" ` +
          `style="color: #${hex(random, 6)}; margin: ${between(random, 0, 16)}px">{{ item.${pick(random, ['name', 'total', 'state'])} }}</div>`,
      );
    lines.push('</template>', '<style scoped>');
    for (let line = 0; line < 8; line++)
      lines.push(
        `.badge-${between(random, 1, 20)} { background: #${hex(random, 3)}; border: 1px solid rgba(0, 0, 0, 0.${between(random, 1, 9)}); }`,
      );
    lines.push('</style>');
  } else {
    lines.push('def handle(event):');
    for (let line = 0; line < 16; line++)
      lines.push(
        `    ${pick(random, ['result', 'payload', 'state', 'row'])} = ${pick(random, ['client', 'db', 'cache'])}.` +
          `${pick(random, ['get', 'fetch', 'put', 'update'])}(event["${pick(random, ['id', 'type', 'user'])}"], timeout=${between(random, 1, 30)})`,
      );
    lines.push('    return {"type": :user, "ok": True}');
  }
  return lines.join('\n');
}

const NARRATION = [
  'Looking at the output, nothing stands out yet; I will check the next component.',
  'The logs show the usual traffic pattern. Moving on to the configuration.',
  'Tests pass locally. Next I will look at the deployment manifests.',
  'That listing matches what I expected. I will continue with the investigation.',
  'The template renders fine. Let me look at the worker next.',
];

/** Options of {@link generateFactSession}. */
export interface FactSessionOptions {
  readonly seed: number;
  /** Work steps (each a call, its output and a note); about 450 tokens each. */
  readonly steps?: number | undefined;
}

/** Build one session and its answer key. */
export function generateFactSession(options: FactSessionOptions): FactSession {
  const random = seededRandom(options.seed);
  const steps = options.steps ?? 110;
  const messages: TranscriptMessage[] = [];
  const facts: PlantedFact[] = [];
  const pairs: [string, string][] = [];
  const updates: PlantedUpdate[] = [];
  const rules: PlantedRule[] = [];
  const distractors: string[] = [];
  let call = 0;
  const toolStep = (name: string, args: string, output: string) => {
    const id = `call_${options.seed}_${call++}`;
    messages.push({ role: 'assistant', content: '', toolCalls: [{ id, name, arguments: args }] });
    messages.push({ role: 'tool', toolCallId: id, toolName: name, content: output });
  };
  const families = [...FAMILIES].sort(() => random() - 0.5).slice(0, 6);
  const templates = [...UPDATES].sort(() => random() - 0.5).slice(0, 5);
  const userRules = [...USER_RULES].sort(() => random() - 0.5).slice(0, 9);
  const pairValues = families.map((family) => [family.value(random, 0), family.value(random, 1)] as const);
  const updateValues = templates.map((template) => template.values(random));
  const firstRegion = pairValues[families.findIndex((family) => family.name === 'region')]?.[0] ?? 'us-east-2';
  const fill = (rule: string) =>
    rule.replace('{bucket}', `s3://acme-exports-${hex(random, 4)}`).replace('{region}', firstRegion);
  // The plan: where each planted item goes among the work steps (all within the first 70%, so it is compacted).
  const plan = new Map<number, (() => void)[]>();
  const at = (step: number, action: () => void) => plan.set(step, [...(plan.get(step) ?? []), action]);
  const span = Math.floor(steps * 0.7);
  families.forEach((family, index) => {
    const source: FactSource = (['user', 'assistant', 'tool'] as const)[index % 3] as FactSource;
    const step = 2 + Math.floor((index * span) / (families.length + 2));
    const values = pairValues[index] as readonly [string, string];
    at(step, () => {
      const text = pairText(source, family, values, random);
      const ids = [`${family.name}:0`, `${family.name}:1`] as const;
      if (source === 'tool') toolStep('read_file', `{"path":"config/${family.name}.yaml"}`, text);
      else messages.push({ role: source, content: text });
      family.labels.forEach((labels, which) =>
        facts.push({
          id: ids[which] as string,
          labels,
          value: values[which] as string,
          source,
          at: messages.length - 1,
        }),
      );
      pairs.push([ids[0], ids[1]]);
    });
    // The same two values again later, without their labels.
    at(step + between(random, 8, 20), () =>
      toolStep('run', `{"cmd":"check ${family.name}"}`, `checking ${values[0]} ... ok\nchecking ${values[1]} ... ok\n`),
    );
  });
  templates.forEach((template, index) => {
    const [old, next] = updateValues[index] as readonly [string, string];
    const first = 1 + Math.floor((index * span) / (templates.length * 2));
    const emit = (message: TranscriptMessage) => {
      if (message.role === 'tool') toolStep('read_file', '{"path":"config"}', message.content);
      else messages.push(message);
    };
    at(first, () => emit(template.first(old)));
    at(first + Math.floor(span / 2), () => {
      emit(template.rebind(old, next));
      updates.push({
        id: `update:${index}`,
        labels: template.labels,
        oldValue: old,
        newValue: next,
        at: messages.length - 1,
      });
    });
  });
  userRules.forEach((rule, index) => {
    const text = fill(rule);
    at(1 + Math.floor((index * span) / userRules.length), () => {
      messages.push({ role: 'user', content: `${pick(random, ['', 'One more thing. ', 'Also: '])}${text}` });
      rules.push({ text, source: 'user', at: messages.length - 1 });
    });
  });
  at(Math.floor(span / 3), () => {
    toolStep(
      'read_file',
      '{"path":"CONTRIBUTING.md"}',
      `# Contributing\n\n${TOOL_RULES.map((rule) => `- ${rule}`).join('\n')}\n`,
    );
    for (const rule of TOOL_RULES) rules.push({ text: rule, source: 'tool', at: messages.length - 1 });
  });
  DISTRACTORS.forEach((sentence, index) =>
    at(3 + Math.floor((index * span) / DISTRACTORS.length), () => {
      messages.push({ role: index % 2 === 0 ? 'user' : 'assistant', content: sentence });
      distractors.push(sentence);
    }),
  );
  messages.push({
    role: 'user',
    content: 'We are migrating the payments service; start by reading the configuration.',
  });
  for (let step = 0; step < steps; step++) {
    for (const action of plan.get(step) ?? []) action();
    toolStep('run', `{"cmd":"inspect step ${step}"}`, fillerOutput(random, step));
    messages.push({ role: 'assistant', content: pick(random, NARRATION) });
  }
  messages.push({ role: 'user', content: 'Summarise where we are and what is left to do.' });
  return { id: `facts-${options.seed}`, messages, facts, pairs, updates, rules, distractors };
}
