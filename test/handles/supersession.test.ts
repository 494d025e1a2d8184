import { describe, expect, it } from 'vitest';
import { createLedger, createMemoryStore } from '../../src/index.js';
import { applySupersession, bindingOf, isCodeAssignment, supersededHandles } from '../../src/handles/supersession.js';
import type { Handle, HandleKind, Role } from '../../src/types.js';

let seq = 0;
function handle(kind: HandleKind, text: string, at = seq++, role: Role = 'user'): Handle {
  return {
    kind,
    text,
    key: text,
    start: 0,
    end: text.length,
    spanId: `sha256:${at}`,
    seq: at,
    role,
    tokens: 3,
  } as Handle;
}

const texts = (set: Set<Handle>) => [...set].map((item) => item.text).sort();

describe('supersession: a later binding of a label replaces the earlier one', () => {
  it('reads the label and value of each binding form, and none of a generic config key', () => {
    expect(bindingOf(handle('assignment', 'DB_HOST=db-ro-3'))).toMatchObject({ label: 'db host', value: 'db-ro-3' });
    expect(bindingOf(handle('assignment', 'max_connections: 150'))).toMatchObject({
      label: 'max connections',
      value: '150',
    });
    expect(bindingOf(handle('assignment', 'deploy bucket is s3://b-eu'))).toMatchObject({
      label: 'deploy bucket',
      value: 's3://b-eu',
    });
    expect(bindingOf(handle('assignment', 'API key from key_a1 to key_b2'))).toMatchObject({
      label: 'api key',
      value: 'key_b2',
      replaced: ['key_a1'],
    });
    expect(bindingOf(handle('number', 'pool size of 40 connections'))).toMatchObject({
      label: 'pool size',
      value: '40 connections',
    });
    expect(bindingOf(handle('assignment', 'name: payments-api'))).toBeUndefined();
    expect(bindingOf(handle('number', 'timeout 30s'))).toBeUndefined();
  });

  it('supersedes the older binding, its bare value and the constraint that names it; keeps the current ones', () => {
    const old = handle('assignment', 'DB_HOST=db-ro-3', 1);
    const bare = handle('identifier', 'db-ro-3', 1);
    const rule = handle('constraint', 'Run the read-only checks against db-ro-3 only.', 0);
    const current = handle('assignment', 'DB_HOST=db-ro-10', 5);
    const later = handle('constraint', 'Never write to db-ro-3 again.', 6);
    const other = handle('assignment', 'REGION=eu-west-1', 2);
    expect(texts(supersededHandles([old, bare, rule, current, later, other]))).toEqual(
      ['DB_HOST=db-ro-3', 'Run the read-only checks against db-ro-3 only.', 'db-ro-3'].sort(),
    );
  });

  it('treats a diff removed line as gone and "from X to Y" as replacing X under any label', () => {
    const removed = handle('assignment', '-TIMEOUT_MS=3000', 4);
    const added = handle('assignment', 'TIMEOUT_MS=4500', 4);
    const dashboard = handle('assignment', 'latency dashboard is at grafana.io/d/a-1', 1);
    const moved = handle('assignment', 'dashboard moved from grafana.io/d/a-1 to grafana.io/d/b-2', 7);
    expect(texts(supersededHandles([removed, added, dashboard, moved]))).toEqual(
      ['-TIMEOUT_MS=3000', 'latency dashboard is at grafana.io/d/a-1'].sort(),
    );
  });

  it('does not rebind generic config keys: two `name:` lines are two objects', () => {
    expect(
      supersededHandles([handle('assignment', 'name: api', 1), handle('assignment', 'name: worker', 2)]).size,
    ).toBe(0);
  });
});

describe('supersession: code is not a fact that a later value replaces', () => {
  it('tells code assignments from settings', () => {
    for (const text of [
      'max_length=20',
      'request_id=req-1',
      '--max-connections=200',
      "app_label = 'test'",
      'SECRET_KEY = "x"',
      'selection_source: :terminal',
      'trace_id: Kite.UUID.generate()',
      'selected_text: nil',
      'start_row: ann.start_row',
      'session_id: session.id',
      'MEDIA_DIR_MODE=0o750',
      'ROOT_URLCONF=__name__',
      'PORT="$(cat port)"',
      '"verbose_name": None',
      'result_mask : ndarray',
    ])
      expect(isCodeAssignment(handle('assignment', text)), text).toBe(true);
    for (const text of [
      'DB_HOST=db-ro-3',
      '-TIMEOUT_MS=3000',
      'max_connections: 150',
      'deploy bucket is s3://b-eu',
      'host: db.internal',
      'enabled: true',
      'api_url: api.example.com',
      'region: eu.west',
      'LOG_FORMAT=json',
      'DB_POOL=79',
      '"proxy_url": "http://proxy.internal:3128"',
    ])
      expect(isCodeAssignment(handle('assignment', text)), text).toBe(false);
  });

  it('never supersedes code the user or the agent wrote, nor the copies of its values', () => {
    const first = handle('assignment', 'max_length=20', 1, 'assistant');
    const second = handle('assignment', 'max_length=5', 4, 'assistant');
    const label = handle('assignment', "app_label = 'test2'", 2, 'assistant');
    const bare = handle('identifier', 'test2', 2, 'assistant');
    const relabel = handle('assignment', "app_label = 'test_app'", 5, 'user');
    expect(supersededHandles([first, second, label, bare, relabel]).size).toBe(0);
  });

  it('ranks code that tool output set again last instead of dropping it; a rebound fact still leaves', () => {
    const oldCode = handle('assignment', 'max_length=20', 1, 'tool');
    const newCode = handle('assignment', 'max_length=5', 3, 'tool');
    const oldFact = handle('assignment', 'DB_HOST=db-ro-3', 2, 'tool');
    const newFact = handle('assignment', 'DB_HOST=db-ro-10', 4, 'user');
    const other = handle('path', 'app/models.py', 2, 'tool');
    const candidates = [oldCode, newCode, oldFact, newFact, other];
    const applied = applySupersession(candidates, [oldCode, oldFact, newCode, newFact, other]);
    expect(texts(new Set(applied.superseded))).toEqual(['DB_HOST=db-ro-3']);
    expect(applied.candidates).toEqual([oldCode, newCode, newFact, other]);
    expect(applied.ranked).toEqual([newCode, newFact, other, oldCode]);
  });
});

describe('supersession: keyword arguments of code in tool output', () => {
  it('reads a single-quoted or True/False value as code in tool output only: a person may type it as a setting', () => {
    for (const text of ["MEDIA_URL='/media/'", 'DEBUG=True', "SQL='x IS NULL'"]) {
      expect(isCodeAssignment({ ...handle('assignment', text), role: 'tool' }), text).toBe(true);
      expect(isCodeAssignment({ ...handle('assignment', text), role: 'user' }), text).toBe(false);
    }
    const said = handle('assignment', 'DEBUG=True', 1, 'user');
    const changed = handle('assignment', 'DEBUG=False', 2, 'user');
    expect(texts(supersededHandles([said, changed]))).toEqual(['DEBUG=True']);
  });

  it('keeps each call its own upper-case keyword argument: ranked last when set again, never dropped', () => {
    const first = handle('assignment', 'MEDIA_DIR_MODE=0o750', 1, 'tool');
    const second = handle('assignment', 'MEDIA_DIR_MODE=0o640', 3, 'tool');
    const bare = handle('identifier', '0o750', 1, 'tool');
    const envOld = handle('assignment', 'TIMEOUT_MS=3000', 2, 'tool');
    const envNew = handle('assignment', 'TIMEOUT_MS=4500', 4, 'tool');
    const candidates = [first, second, bare, envOld, envNew];
    const applied = applySupersession(candidates, [first, bare, envOld, second, envNew]);
    expect(texts(new Set(applied.superseded))).toEqual(['TIMEOUT_MS=3000']);
    expect(applied.candidates).toEqual([first, second, bare, envNew]);
    // The first call's value follows it to the end (a copy of what only code set), like the rebound code itself.
    expect(applied.ranked).toEqual([second, envNew, first, bare]);
  });
});

describe('supersession in a session: the window shows the current value, the old one stays recallable', () => {
  it('compacts an update so that only the new binding is in the ledger block', async () => {
    const ledger = createLedger({ store: createMemoryStore() });
    const session = await ledger.session('update', { window: { maxTokens: 1200 } });
    await session.append({
      role: 'user',
      content: 'Upload the bundle to the deploy bucket s3://acme-deploy-us-41 when it is ready.',
    });
    for (let step = 0; step < 6; step++) {
      await session.append({ role: 'assistant', content: `Step ${step}: reading the build logs for the bundle.` });
      await session.append({
        role: 'user',
        content: `Filler ${step}: ${'the build is still running, keep going. '.repeat(12)}`,
      });
    }
    await session.append({
      role: 'user',
      content: 'Correction: the deploy bucket is s3://acme-deploy-eu-41, not the us one.',
    });
    for (let step = 0; step < 24; step++) {
      await session.append({
        role: 'assistant',
        content: `Later step ${step}: ${'waiting for the upload to finish. '.repeat(10)}`,
      });
      await session.render();
    }
    const context = await session.render();
    // The correction itself was compacted: the window knows it only through the ledger block.
    expect(context.text).not.toMatch(/\[user\]\nCorrection:/);
    expect(context.text).toContain('deploy bucket is s3://acme-deploy-eu-41');
    expect(context.text, context.text).not.toContain('s3://acme-deploy-us-41');
    const recalled = await session.recall('s3://acme-deploy-us-41');
    expect(recalled.status).toBe('verified');
  });
  it('keeps a value that a later source listing set again in the window when there is room', async () => {
    const ledger = createLedger({ store: createMemoryStore() });
    const session = await ledger.session('code', { window: { maxTokens: 1600 } });
    const listing = async (id: string, path: string, field: string) => {
      await session.append({
        role: 'assistant',
        content: '',
        toolCalls: [{ id, name: 'bash', arguments: JSON.stringify({ command: `cat ${path}` }) }],
      });
      await session.append({ role: 'tool', toolCallId: id, content: `class Item(models.Model):\n    ${field}\n` });
    };
    await listing('c1', 'shop/models.py', 'code = models.CharField(max_length=20)');
    await listing('c2', 'blog/models.py', 'slug = models.SlugField(max_length=5)');
    for (let step = 0; step < 24; step++) {
      await session.append({
        role: 'assistant',
        content: `Step ${step}: ${'reading the rest of the test output before the next change. '.repeat(8)}`,
      });
      await session.render();
    }
    const context = await session.render();
    // Both listings were compacted: the window knows them only through the ledger block.
    expect(context.text).not.toContain('class Item');
    expect(context.text, context.text).toContain('max_length=20');
    expect(context.text).toContain('max_length=5');
  });
});
