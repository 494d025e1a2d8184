import type { TranscriptMessage } from '../ingest/messages.js';

/** Appends demo messages; tool calls are numbered call_001, call_002, … in the order they are made. */
interface DemoWriter {
  /** A plain message. */
  say(role: 'user' | 'assistant', content: string): void;
  /** An assistant tool call (with optional text) and the tool's result. */
  tool(name: string, args: Record<string, unknown>, output: string, text?: string): void;
}

function demoWriter(messages: TranscriptMessage[]): DemoWriter {
  let call = 0;
  return {
    say(role, content) {
      messages.push({ role, content });
    },
    tool(name, args, output, text = '') {
      const id = `call_${String(++call).padStart(3, '0')}`;
      messages.push({ role: 'assistant', content: text, toolCalls: [{ id, name, arguments: JSON.stringify(args) }] });
      messages.push({ role: 'tool', content: output, toolCallId: id, toolName: name });
    },
  };
}

/**
 * A long deployment-debugging session written for the demo: the payments service fails to
 * deploy; the user gives the replica and a prohibition early; the agent reads logs and
 * configs for many turns. Deterministic: the same messages every time.
 */
export function demoTranscript(): TranscriptMessage[] {
  const messages: TranscriptMessage[] = [];
  const writer = demoWriter(messages);
  briefAndFirstLook(writer);
  for (let round = 0; round < 14; round++) investigationRound(writer, round);
  findTheOverride(writer);
  fixAndAsk(writer);
  return messages;
}

/** Scene 1: the user's brief with its constraints; the agent reads the logs and the config. */
function briefAndFirstLook({ say, tool }: DemoWriter): void {
  say(
    'user',
    [
      'The payments service deploy to prod keeps failing since this morning (ticket PAY-4412). Can you find out why and fix it?',
      'Use PAYMENTS_DB_REPLICA=eu-west-2b for every database check.',
      'The eu-west-1 replica is read-only, do not target it.',
      'Keep the retry ceiling of 7 from config/payments.yaml; do not raise it.',
    ].join('\n'),
  );
  say(
    'assistant',
    'I will start with the deploy logs for the payments service, then check the database configuration against eu-west-2b.',
  );
  tool('bash', { command: 'kubectl -n payments logs deploy/payments-api --since=2h | tail -n 40' }, logLines(0, 40));
  tool(
    'read_file',
    { path: 'config/payments.yaml' },
    [
      'service: payments-api',
      'max_retries: 7',
      'timeout_ms: 3000',
      'db_host: payments-db.eu-west-2b.internal:5432',
      'pool_size: 20',
      'feature_flags:',
      '  ledger_v2: false',
    ].join('\n'),
  );
  say(
    'assistant',
    'The config says max_retries: 7 and points at payments-db.eu-west-2b.internal:5432, which matches the replica you gave. ' +
      'The failures are connection timeouts, so I will look at the network path next.',
  );
}

/** Scene 2, one round of many: a pod, a query, sometimes a nudge from the user, a note, a manifest. */
function investigationRound({ say, tool }: DemoWriter, round: number): void {
  const host = `10.0.${3 + (round % 4)}.${10 + round}`;
  tool(
    'bash',
    { command: `kubectl -n payments describe pod payments-api-7d9f${round}c-x${round}q` },
    podDescription(round, host),
  );
  tool(
    'bash',
    {
      command:
        'psql "postgres://app@payments-db.eu-west-2b.internal:5432/payments" ' +
        `-c "select count(*) from charges where created_at > now() - interval '${round + 1} hour'"`,
    },
    queryOutput(round),
  );
  if (round % 3 === 0) say('user', `Any progress? The on-call channel is asking about INC-${2290 + round}.`);
  say(
    'assistant',
    `Round ${round + 1}: pod ${host} restarted after ${round + 2} failed health checks; ` +
      'the replica answers queries, so the database itself is up. ' +
      `Next I will compare the deployment manifest against release v2.${14 + round}.0.`,
  );
  tool('read_file', { path: `deploy/k8s/payments-api.v2.${14 + round}.yaml` }, manifest(round));
}

/** Scene 3: the user asks about eu-west-1 again; the agent finds the override. */
function findTheOverride({ say, tool }: DemoWriter): void {
  say(
    'user',
    'Please double-check that nothing points at the eu-west-1 replica; we had an outage from that last quarter.',
  );
  tool(
    'bash',
    { command: 'grep -rn "eu-west-1" deploy/ config/ || true' },
    [
      'deploy/k8s/payments-api.v2.27.yaml:41:        - name: PAYMENTS_DB_REPLICA',
      'deploy/k8s/payments-api.v2.27.yaml:42:          value: eu-west-1',
    ].join('\n'),
  );
  say(
    'assistant',
    'Found it: release v2.27.0 overrides PAYMENTS_DB_REPLICA with eu-west-1 in deploy/k8s/payments-api.v2.27.yaml line 42. ' +
      'That replica is read-only, so every write times out after 7 retries.',
  );
}

/** Scene 4: the fix and the rollout; the user's closing question asks for the early constraints. */
function fixAndAsk({ say, tool }: DemoWriter): void {
  tool(
    'edit_file',
    { path: 'deploy/k8s/payments-api.v2.27.yaml', old: 'value: eu-west-1', new: 'value: eu-west-2b' },
    'Edited deploy/k8s/payments-api.v2.27.yaml (1 replacement).',
  );
  tool(
    'bash',
    {
      command:
        'kubectl -n payments rollout restart deploy/payments-api && kubectl -n payments rollout status deploy/payments-api',
    },
    [
      'deployment.apps/payments-api restarted',
      'Waiting for deployment "payments-api" rollout to finish: 1 of 3 updated replicas are available...',
      'deployment "payments-api" successfully rolled out',
    ].join('\n'),
  );
  say('assistant', 'The rollout finished and writes now go to eu-west-2b. I kept the retry ceiling of 7 unchanged.');
  say(
    'user',
    'Great. Before you close PAY-4412, which replica did we end up on, and what were the constraints I gave you at the start?',
  );
}

/** More turns after the demo session: the agent reads the deploy logs again (bulky tool results). */
export function demoFollowUp(): TranscriptMessage[] {
  const messages: TranscriptMessage[] = [];
  for (let round = 0; round < 6; round++) {
    const id = `call_followup_${round}`;
    messages.push({
      role: 'assistant',
      content: `Reading the deploy logs again, window ${round + 1}.`,
      toolCalls: [
        {
          id,
          name: 'bash',
          arguments: JSON.stringify({
            command: `kubectl -n payments logs deploy/payments-api --since=${round + 1}h | tail -n 30`,
          }),
        },
      ],
    });
    messages.push({ role: 'tool', toolCallId: id, toolName: 'bash', content: logLines(40 + round * 30, 30) });
  }
  return messages;
}

function logLines(offset: number, count: number): string {
  const lines: string[] = [];
  for (let index = 0; index < count; index++) {
    const second = String((offset + index * 7) % 60).padStart(2, '0');
    const minute = String(10 + Math.floor(index / 4)).padStart(2, '0');
    const kind = index % 5;
    const at = `2026-11-12T09:${minute}:${second}Z`;
    if (kind === 0)
      lines.push(
        `${at} ERROR payments-api Error: connect ETIMEDOUT 10.0.3.${17 + (index % 9)}:5432 (attempt ${1 + (index % 7)}/7)`,
      );
    else if (kind === 1)
      lines.push(`${at} WARN  payments-api retrying charge ch_${(4821 + index * 13).toString(16)} after 250ms backoff`);
    else if (kind === 2)
      lines.push(
        `${at} INFO  payments-api request_id=req-${(90412 + index * 31).toString(36)} POST /v1/charges 503 in 3004ms`,
      );
    else if (kind === 3) lines.push(`${at} INFO  payments-api health check /healthz ok in ${12 + index}ms`);
    else
      lines.push(
        `${at} ERROR payments-api FATAL: could not write to replica: cannot execute INSERT in a read-only transaction`,
      );
  }
  return lines.join('\n');
}

function podDescription(round: number, host: string): string {
  return [
    `Name:         payments-api-7d9f${round}c-x${round}q`,
    'Namespace:    payments',
    `Node:         ip-${host.replaceAll('.', '-')}.eu-west-2.compute.internal/${host}`,
    `Status:       ${round % 2 === 0 ? 'Running' : 'CrashLoopBackOff'}`,
    `IP:           ${host}`,
    'Containers:',
    '  payments-api:',
    `    Image:          registry.internal/payments-api:v2.${14 + round}.0`,
    '    Port:           8080/TCP',
    `    Restart Count:  ${round + 2}`,
    '    Liveness:       http-get http://:8080/healthz delay=10s timeout=3s period=10s',
    'Events:',
    `  Warning  Unhealthy  ${round + 3}m  kubelet  Readiness probe failed: Get "http://${host}:8080/readyz": context deadline exceeded`,
    `  Normal   Pulled     ${round + 5}m  kubelet  ` +
      `Container image "registry.internal/payments-api:v2.${14 + round}.0" already present on machine`,
  ].join('\n');
}

function queryOutput(round: number): string {
  return [' count ', '-------', `  ${1200 + round * 37}`, '(1 row)', '', `Time: ${40 + round * 3}.${round}12 ms`].join(
    '\n',
  );
}

function manifest(round: number): string {
  return [
    'apiVersion: apps/v1',
    'kind: Deployment',
    'metadata:',
    '  name: payments-api',
    '  namespace: payments',
    'spec:',
    `  replicas: ${3 + (round % 2)}`,
    '  template:',
    '    spec:',
    '      containers:',
    '        - name: payments-api',
    `          image: registry.internal/payments-api:v2.${14 + round}.0`,
    '          env:',
    '            - name: PAYMENTS_DB_REPLICA',
    '              value: eu-west-2b',
    '            - name: PAYMENTS_MAX_RETRIES',
    '              value: "7"',
    `            - name: FEATURE_LEDGER_V2`,
    `              value: "${round % 2 === 0 ? 'false' : 'true'}"`,
    '          resources:',
    `            limits: { cpu: "${500 + round * 50}m", memory: "${512 + round * 64}Mi" }`,
  ].join('\n');
}
