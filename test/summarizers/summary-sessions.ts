/**
 * Generated sessions for the summary-lines score (issue 36, part 5), in our own words: each one plants the user's
 * ask (and sometimes a later one), locked decisions said by the user or the agent, state lines, tool calls and
 * results, and filler on both sides — acknowledgements, the agent's courtesy and narration — placed where filler
 * lands in real sessions: around the ask, between steps, and as the last user and agent turns before the cut.
 * Seeded: the same seed always gives the same session.
 */
import type { SourceUnit } from '../../src/summarizers/summarizer.js';

/** A generated session: its units and what was planted in them. */
export interface SummarySession {
  readonly id: string;
  readonly units: readonly SourceUnit[];
  /** The user's asks, verbatim (the first request's, then the later one's when there is one). */
  readonly asks: readonly string[];
  /** The later ask, when the session has one (the Task must show it). */
  readonly laterAsk: string | undefined;
  /** Locked decisions, verbatim. */
  readonly decisions: readonly string[];
  /** Every filler sentence planted, verbatim. */
  readonly filler: readonly string[];
}

const ASKS: readonly (readonly [string, string])[] = [
  ['Add rate limiting to the public search endpoint.', 'Right now one client can take the whole service down.'],
  ['Migrate the nightly report job from cron to the workflow scheduler.', 'The cron host is being retired in May.'],
  ['Fix the flaky login test in the auth suite.', 'It fails about one run in ten on CI.'],
  ['Make the CSV importer stream rows instead of loading the whole file.', 'Big uploads run out of memory.'],
  ['Can you add pagination to the orders API?', 'The mobile team asked for cursor-based pages.'],
  ['Please move the feature flags into the config service.', 'They are scattered across three repos today.'],
  ['I need the invoice PDFs to include the VAT number.', 'Our German customers cannot file them otherwise.'],
  ['Investigate why the checkout page is slow on mobile.', 'Time to interactive went from 2s to 6s last week.'],
  ['Set up a staging deploy for the billing worker.', 'We only have production and local right now.'],
  ['Write integration tests for the webhook handler.', 'The handler has no tests at all.'],
  ['Could you split the settings module into one file per service?', 'It has grown past 3,000 lines.'],
  ['Replace the hand-written retry loops with the shared backoff helper.', 'There are at least six copies.'],
];
const LATER_ASKS: readonly string[] = [
  'Also add a metric for rejected requests.',
  'Now do the same for the admin API.',
  'Next, update the README with the new limits.',
  'Can you also add an alert when the error rate passes 2%?',
  'Please write a short migration note for the other teams.',
];
const USER_DECISIONS: readonly string[] = [
  "Let's go with Redis for the counters.",
  'Keep the 429 response body as plain JSON.',
  'Drop the IP-based fallback.',
  "We'll use a sliding window, not a fixed one.",
  'Decided: the limit is 60 requests per minute per key.',
  'Stick with the existing middleware chain.',
  'Switch the tests to the in-memory store.',
  'Use the shared Redis cluster, not a new one.',
];
const AGENT_DECISIONS: readonly string[] = [
  "We'll use a token bucket per API key instead of a global counter.",
  'I decided to keep the limiter in middleware rather than in each handler.',
  "We're going with a 10-second burst allowance.",
  'We chose Lua scripts so the check and the increment are atomic.',
  "I'll stick with the existing retry helper.",
  'Instead of a new table, the limits live in the plans config.',
];
const USER_FILLER: readonly string[] = [
  'Sounds good.',
  'Thanks!',
  'ok',
  'Great, carry on.',
  'Perfect, continue.',
  'Nice.',
  'Yes please.',
  'Go ahead.',
  'Cool, thanks.',
  'Looks good to me.',
  'Keep going.',
  "What's next?",
];
const GREETINGS: readonly string[] = ['Hi!', 'Morning.', 'Hey there.', 'Hello again.'];
const AGENT_FILLER: readonly string[] = [
  'Let me take a look.',
  'Continuing with the plan.',
  'Sounds good.',
  'Anything else pressing?',
  'Good progress so far.',
  'Now I have the full picture.',
  'Let me check the tests.',
  'Great, that worked.',
  'Okay, moving on.',
  'Happy to help with anything else.',
  'Perfect!',
  'This is a substantial task.',
  'Hope this helps!',
];
const STATE: readonly string[] = [
  'The limiter middleware is wired into the router.',
  'All 214 tests pass.',
  'The Redis client reconnects after a timeout.',
  'The staging deploy finished in 4 minutes.',
  'The importer now reads 10,000 rows per batch.',
  'The webhook handler rejects unsigned payloads with a 401.',
  'The report job ran once on the new scheduler without errors.',
];
/**
 * Wording first kept apart and then looked at while the small-talk test was widened: part of the tuned wording now.
 */
const SEEN = {
  userDecisions: [
    "Let's use Postgres advisory locks for this.",
    "We'll keep the v1 endpoints for now.",
    'Go with the second option.',
    'Remove the legacy flag entirely.',
  ],
  agentDecisions: [
    'I went with a bounded queue rather than an unbounded one.',
    'We decided against caching the tokens.',
    'Opted for the streaming parser over the DOM parser.',
  ],
  userFiller: [
    'Alright, sounds great.',
    'Thank you so much!',
    'Yep, do it.',
    'Fine by me.',
    'Okay cool.',
    'Love it, thanks.',
    'Good stuff.',
    'Makes sense, go on.',
  ],
  agentFiller: [
    'Let me dig into this.',
    'Moving on to the next step.',
    'All set on that front.',
    'Let me verify that.',
    'That looks right.',
    'Happy to keep going.',
    'Is there anything else you need?',
    'Working on it now.',
  ],
} as const;

/** Held-out wording, written before the summarizer was run on it and never tuned on (`wording: 'held-out'`). */
const HELD_OUT = {
  userDecisions: [
    "Let's stay on Node 20 for this release.",
    "We'll ship it behind a feature flag.",
    'Pick the cheaper instance type.',
    'Decision: no new dependencies for this.',
  ],
  agentDecisions: [
    'I chose server-sent events over websockets for the updates.',
    "We're sticking with the current schema for now.",
    'Rather than patching each caller, the check moved into the client.',
  ],
  userFiller: [
    'Nice one.',
    'Ok, great.',
    'Cheers!',
    'Brilliant, thanks.',
    'Sure thing.',
    "That's fine.",
    'Right, carry on then.',
    'Sweet.',
  ],
  agentFiller: [
    'Let me have a look at that.',
    'On it.',
    'Here we go.',
    'Getting there.',
    'Almost done.',
    'That should do it.',
    'Just a moment.',
    'Will do!',
  ],
} as const;
const TUNE = {
  userDecisions: [...USER_DECISIONS, ...SEEN.userDecisions],
  agentDecisions: [...AGENT_DECISIONS, ...SEEN.agentDecisions],
  userFiller: [...USER_FILLER, ...SEEN.userFiller],
  agentFiller: [...AGENT_FILLER, ...SEEN.agentFiller],
} as const;

const FILES = ['src/api/search.ts', 'src/limits/bucket.ts', 'src/jobs/report.py', 'test/webhook.test.ts'];

function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = Math.imul(state ^ (state >>> 15), 1 | state);
    value ^= value + Math.imul(value ^ (value >>> 7), 61 | value);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

function pick<T>(random: () => number, list: readonly T[]): T {
  return list[Math.floor(random() * list.length)] as T;
}

function picks<T>(random: () => number, list: readonly T[], count: number): T[] {
  return [...list].sort(() => random() - 0.5).slice(0, count);
}

/** Builds one session (see the module notes), with the tuned wording or the held-out one. */
export function generateSummarySession(seed: number, wording: 'tune' | 'held-out' = 'tune'): SummarySession {
  const random = seeded(seed);
  const words = wording === 'tune' ? TUNE : HELD_OUT;
  const units: SourceUnit[] = [];
  const filler: string[] = [];
  const add = (role: SourceUnit['role'], text: string, kind?: SourceUnit['kind']) =>
    units.push({
      text,
      spanIds: [`sha256:${seed}-${units.length}`],
      role,
      seq: units.length,
      kind,
      origin: 'original',
    });
  const say = (role: 'user' | 'assistant', sentences: readonly string[], planted: readonly string[] = []) => {
    for (const sentence of planted) filler.push(sentence);
    add(role, sentences.join(' '));
  };
  const [ask, context] = pick(random, ASKS);
  const greeting = random() < 0.5 ? [pick(random, GREETINGS)] : [];
  say('user', [...greeting, ask, context], greeting);
  const userDecisions = picks(random, words.userDecisions, 1 + Math.floor(random() * 2));
  const agentDecisions = picks(random, words.agentDecisions, 3 - userDecisions.length);
  const decisions = [...userDecisions, ...agentDecisions];
  const laterAsk = random() < 0.5 ? pick(random, LATER_ASKS) : undefined;
  const steps = 8;
  for (let step = 0; step < steps; step++) {
    const chatter = pick(random, words.agentFiller);
    say('assistant', [chatter, pick(random, STATE)], [chatter]);
    const file = pick(random, FILES);
    add('assistant', JSON.stringify({ file_path: file, old_string: 'a', new_string: 'b' }), 'tool-call');
    add('tool', `The file ${file} has been updated successfully.`);
    // the agent's decisions at steps 1 and 3, the user's at steps 2 and 6
    const agentDecision = step % 2 === 1 ? agentDecisions[step >> 1] : undefined;
    if (agentDecision !== undefined) say('assistant', [agentDecision]);
    const userDecision = step % 4 === 2 ? userDecisions[step >> 2] : undefined;
    if (userDecision !== undefined) say('user', [userDecision]);
    if (step === 5 && laterAsk !== undefined) say('user', [laterAsk]);
    if (step % 3 === 0) {
      const ack = pick(random, words.userFiller);
      say('user', [ack], [ack]);
    }
  }
  const lastAck = pick(random, words.userFiller);
  say('user', [lastAck], [lastAck]);
  const lastCourtesy = pick(random, words.agentFiller);
  say('assistant', [lastCourtesy], [lastCourtesy]);
  const asks = laterAsk === undefined ? [ask] : [ask, laterAsk];
  return { id: `summary-${wording}-${seed}`, units, asks, laterAsk, decisions, filler: [...new Set(filler)] };
}
