/**
 * A labelled yardstick for the extractive summary's Task and Decisions lines (issue 36, part 5), written by hand for
 * this bench and not by the summarizer's code: sentences of a user or an agent, each labelled with what it carries.
 *
 * - `request`: what the user asks for (an order, a request, a wish, a question that asks for work);
 * - `decision`: a sentence that settles a choice, whoever says it, in any phrasing;
 * - `filler`: acknowledgement, pleasantry, courtesy, a go-ahead without an object, "where I am" chatter;
 * - `question`: the agent asking the user something back (a choice left open);
 * - `status`: the state of the work (what passes, what was changed, what was found).
 *
 * The domains and the phrasings are deliberately unlike the summarizer's tests (`test/summarizers/`).
 */

/** What a labelled sentence carries. */
export type LineLabel = 'request' | 'decision' | 'filler' | 'question' | 'status';

/** One labelled sentence, and who says it. */
export interface LabelledSentence {
  readonly role: 'user' | 'assistant';
  readonly label: LineLabel;
  readonly text: string;
  /** Written before the summarizer was changed and never looked at while changing it. */
  readonly heldOut?: boolean;
}

const user = (label: LineLabel, texts: readonly string[]): LabelledSentence[] =>
  texts.map((text) => ({ role: 'user', label, text }));
const agent = (label: LineLabel, texts: readonly string[]): LabelledSentence[] =>
  texts.map((text) => ({ role: 'assistant', label, text }));

const held = (sentences: readonly LabelledSentence[]): LabelledSentence[] =>
  sentences.map((sentence) => ({ ...sentence, heldOut: true }));

/** The labelled sentences. */
export const LABELLED_SENTENCES: readonly LabelledSentence[] = [
  ...user('request', [
    'Port the thumbnail generator from ImageMagick to libvips.',
    'Could we get the nightly export to also write a checksum file?',
    'I would like the search results sorted by relevance, then by date.',
    'The next thing I want is an audit log for every permission change.',
    'It would be great if the CLI printed a summary table at the end.',
    'Please rename the `acct` package to `accounts` everywhere.',
    'Why does the cache miss on every call to getProfile?',
    'Add a dark mode toggle to the settings screen.',
    'Get the Android build green again.',
    'We need the uploader to retry on 503 responses.',
    'Track down the memory leak in the websocket gateway.',
    'Bump the minimum Go version to 1.22 and fix whatever breaks.',
    'Wire the new pricing table into the checkout flow.',
    'could you make the progress bar show an ETA',
    'Help me understand why the migration deadlocks under load.',
    'Teach the linter to flag unused feature flags.',
  ]),
  ...user('decision', [
    "Let's not bother with a fallback for IE.",
    'Postgres it is.',
    'Leave the public API exactly as it is.',
    'No new migrations in this PR.',
    'Go for option B.',
    "We're dropping the XML output.",
    'Stay on the 2.x client until the vendor fixes the bug.',
    "Don't use an ORM here; plain SQL is fine.",
    'Hold off on the Windows support for now.',
    'Use protobuf over JSON for the internal events.',
    "Let's keep the retries at three.",
    'Prefer composition over the base class here.',
    "Scrap the cron approach, we'll trigger it from the queue.",
    'Ok, then go with the second approach.',
  ]),
  ...agent('decision', [
    "I'm going to store the thumbnails in the object store rather than on disk.",
    'Settled on SQLite for the local cache.',
    "I've opted to keep the old endpoint as a thin redirect.",
    'The plan is to replace the polling loop with a change stream.',
    'Going forward the importer validates rows before it writes them.',
    "We'll leave the timezone handling in UTC and convert only in the UI.",
    'I picked the bounded channel so a slow consumer cannot exhaust memory.',
    'Chose the streaming JSON parser over loading the whole document.',
    'Based on your answer, the cache will be per tenant, not global.',
    "I'll use a single transaction for the whole batch.",
    'Rejected the regex approach: it cannot handle nested quotes.',
    'Decision made: ship the feature behind the beta flag.',
  ]),
  ...user('filler', [
    'Much appreciated.',
    'Righto.',
    "Let's keep moving.",
    'Awesome work!',
    'That works for me.',
    'Okay, continue.',
    'Sure, go for it.',
    'Thanks a ton.',
    'Good job so far.',
    'Nice, carry on with the rest.',
  ]),
  ...agent('filler', [
    'Great question!',
    "I'll continue from where we left off.",
    'Picking up where I left off.',
    'Let me know how you would like to proceed.',
    'Understood, getting right on it.',
    'Everything is on track.',
    'Happy to help with that!',
    'Let me take a closer look.',
    'Moving on.',
    'Continuing with the remaining items.',
    'Let me continue with the plan.',
    'Alright, let me get started.',
    'Good, that is what I expected.',
    'Now let me look at the next part.',
    'Let me know if anything else comes up!',
    "I'll proceed as planned.",
  ]),
  ...agent('question', [
    'Should I commit these changes now?',
    'Do you want me to update the docs as well?',
    'Would you like me to continue with the remaining files?',
    'Which of these two options do you prefer?',
    'Anything else you want me to look at?',
    'Shall I go ahead with the refactor?',
  ]),
  ...agent('status', [
    'The thumbnail tests pass on both backends.',
    'Migration 0042 applied cleanly on staging.',
    'The leak comes from a listener that is never removed in `Gateway.close`.',
    'The export job now writes `export.sha256` next to the archive.',
    'Lint reports 3 unused flags in `flags.yaml`.',
  ]),
  // added with the Decisions ranking (issue 36 item 5): more phrasings of choices, of filler and of state
  ...user('decision', [
    "We're not going to support the legacy token format.",
    "I'd rather keep the settings in TOML.",
    "Let's punt on localization until the beta ships.",
    'Go ahead with the soft-delete variant.',
    'Make it a soft delete instead of removing the rows.',
    'Just use the default page size.',
    'Actually, keep the old column name.',
    'I prefer the second layout.',
    'The latter, please.',
    'Server-side rendering is the way to go.',
  ]),
  ...agent('decision', [
    'I kept the retry budget at five to match the mobile client.',
    'I switched the parser to streaming mode so memory stays flat.',
    'Decided against vendoring the crypto library; we pin it to a release instead.',
    'To avoid a breaking change, the old `--fast` flag stays as an alias.',
    'Going with a per-user quota, not a global one.',
    'The exporter is staying on the synchronous path for this release.',
    'We went with the append-only log over in-place updates.',
    'A lookup table is probably the better approach here, since the keys never change.',
  ]),
  ...agent('filler', [
    'This looks promising.',
    'I see what is going on now.',
    'Okay, the picture is much clearer now.',
    'Alright, making good progress here.',
    'That was the last piece of the puzzle.',
    'Interesting, that explains a lot.',
    'Now I understand the structure of the billing module.',
    'I found the relevant code.',
    'Good catch!',
    'Sorry about the confusion.',
    'My mistake, I misread the output.',
    'Almost there.',
  ]),
  ...agent('status', [
    'The staging deploy finished and `/healthz` returns 200.',
    'All 212 unit tests pass after the rename.',
  ]),
  ...held([
    ...user('request', [
      'Split the monolithic settings page into tabs.',
      'Can you find out what is hammering the billing database at 3am?',
      'I want the onboarding emails localised into Spanish and French.',
      'Make the scheduler skip public holidays.',
      'Would you look into why the PDF fonts render as boxes on Linux?',
      'Our docs site needs a search box.',
      'Convert the remaining class components to hooks.',
      'Let me see a breakdown of test time per package.',
    ]),
    ...user('decision', [
      'Redis for sessions, Postgres for everything else.',
      'Forget the GraphQL layer, REST is enough.',
      "We'll go without a CDN for the beta.",
      'Keep using the vendored copy of the parser.',
      "Don't touch the payments module in this change.",
      'Option A then.',
      'Better to fail loudly than to retry silently, so remove the retry.',
      "Let's defer the mobile layout to the next sprint.",
    ]),
    ...agent('decision', [
      'I went for a write-ahead log instead of periodic snapshots.',
      "I'm keeping the old field name for backwards compatibility.",
      'The final choice is the MIT-licensed charting library.',
      "Given the constraints, we're going with server-side rendering.",
      'Dropped the plan to cache tokens; they expire too fast.',
      "From here on I'll use the staging key, never the production one.",
    ]),
    ...user('filler', [
      'Brilliant.',
      'Yep that all makes sense.',
      'Cheers, keep at it.',
      'Looks great so far!',
      'Okie dokie.',
    ]),
    ...agent('filler', [
      'Let me pick this back up.',
      'Resuming the work now.',
      'Okay, onto the next item.',
      'I hope that clears things up.',
      'Good catch, thanks for flagging it.',
      'Back to the task at hand.',
      'Let me wrap this up.',
      'Sure thing, on it.',
    ]),
    ...agent('question', [
      'Do you want the fix backported to the 1.x branch too?',
      'Is it okay if I also bump the lockfile?',
      'Want me to open a PR for this?',
    ]),
    ...agent('status', ['The flaky test passed 50 runs in a row.', 'Deploy to staging finished without errors.']),
  ]),
];
