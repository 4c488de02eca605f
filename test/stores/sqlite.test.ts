// sqliteStore on a real SQLite file (node:sqlite): durable across restarts (a payer's replay of their own paid
// message never runs onPaid twice), one claim across processes sharing the file, a bounded claim, and tracked
// orders handed to one sweep at a time across processes. The sweep's scenarios on it: test/notify/sweep.test.ts.
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { createNotificationProcessor, GatewayError, GatewayValidationError, type PayOrderNotification, type ProcessingContext } from '../../src/index.js';
import { sqliteStore, type SqliteStore } from '../../src/stores/sqlite.js';
import { formBody, MERCHANT, signedFields } from '../support/notification.js';
import { removeDir } from '../support/servers/process.js';

type OnPaid = (notification: PayOrderNotification, context: ProcessingContext) => Promise<void>;

const scratch = mkdtempSync(join(tmpdir(), 'pgsdk-sqlite-'));
let files = 0;
const newFile = () => join(scratch, `store-${++files}.sqlite`);
const opened: SqliteStore[] = [];
const open = (options: Parameters<typeof sqliteStore>[0]) => {
  const store = sqliteStore(options);
  opened.push(store);
  return store;
};

afterEach(() => {
  for (const store of opened.splice(0)) store.close();
});
afterAll(() => removeDir(scratch));

describe('sqliteStore', () => {
  it("never forgets: a payer's replay of an old paid message after a restart is a duplicate, onPaid runs once", async () => {
    const path = newFile();
    const onPaid = vi.fn<OnPaid>(async () => {});
    // The vector's reqTime is from 2021: a store that never forgets has no horizon, however old the event.
    const paid = formBody(signedFields());
    const before = open({ path });
    expect(before.horizon).toBeUndefined();
    expect((await createNotificationProcessor({ ...MERCHANT, store: before, onPaid }).handle(paid)).outcome.kind).toBe('processed');
    before.close();
    opened.splice(opened.indexOf(before), 1);
    const afterRestart = createNotificationProcessor({ ...MERCHANT, store: open({ path }), onPaid });
    expect(await afterRestart.handle(paid)).toMatchObject({ status: 200, body: 'SUCCESS', outcome: { kind: 'duplicate' } });
    expect(onPaid).toHaveBeenCalledTimes(1);
  });

  it('creates its table when it opens the file; migrate() is there for parity and changes nothing', async () => {
    const path = newFile();
    const store = open({ path, table: 'shop_notifications' });
    await store.migrate();
    await store.migrate();
    expect(store.table).toBe('shop_notifications');
    expect((await store.runOnce('k', async () => {})).status).toBe('ran');
    const db = new DatabaseSync(path);
    try {
      expect(db.prepare('SELECT idempotency_key AS key, processed_at IS NOT NULL AS done, claim_token FROM shop_notifications').all()).toEqual([{ key: 'k', done: 1, claim_token: null }]);
      expect(db.prepare('PRAGMA journal_mode').get()).toEqual({ journal_mode: 'wal' });
    } finally {
      db.close();
    }
  });

  it('releases the claim when the effect throws, so the next delivery runs it', async () => {
    const store = open({ path: newFile() });
    await expect(store.runOnce('k', async () => Promise.reject(new Error('warehouse API down')))).rejects.toThrow('warehouse API down');
    expect((await store.runOnce('k', async () => {})).status).toBe('ran');
    expect((await store.runOnce('k', async () => {})).status).toBe('done');
  });

  it('a hung onPaid loses its claim after claimTimeoutMs: its signal aborts, another process of the file runs it, the late finish says it ran twice', async () => {
    const path = newFile();
    const hung = Promise.withResolvers<void>();
    let signal: AbortSignal | undefined;
    const first = open({ path, claimTimeoutMs: 150 }).runOnce('k', async (context) => {
      signal = context.signal;
      await hung.promise;
    });
    await vi.waitFor(() => expect(signal).toBeDefined());
    const other = open({ path, claimTimeoutMs: 150 }); // another connection, as another process would hold
    expect((await other.runOnce('k', async () => {})).status).toBe('busy');
    await vi.waitFor(() => expect(signal?.aborted).toBe(true), { timeout: 2_000 });
    expect(signal?.reason).toBeInstanceOf(GatewayError);
    expect(String(signal?.reason)).toMatch(/claimTimeoutMs \(150 ms\)/);
    let ran = false;
    expect(await other.runOnce('k', async () => void (ran = true))).toEqual({ status: 'ran' });
    expect(ran).toBe(true);
    hung.resolve();
    expect(await first).toEqual({ status: 'ran', warning: expect.stringMatching(/the effect ran twice/) });
    expect((await other.runOnce('k', async () => {})).status).toBe('done');
  });

  it('a run past its bound that another delivery did not take over is recorded done', async () => {
    const store = open({ path: newFile(), claimTimeoutMs: 20 });
    // On a loaded machine the claim may have lapsed before the effect starts: its signal is aborted already then.
    const result = await store.runOnce('k', ({ signal }) => new Promise<void>((resolve) => (signal.aborted ? resolve() : signal.addEventListener('abort', () => resolve(), { once: true }))));
    expect(result).toEqual({ status: 'ran', warning: expect.stringMatching(/recorded done/) });
    expect((await store.runOnce('k', async () => {})).status).toBe('done');
  });

  it('a claim that waited for another process\'s write lock is bounded from when it was taken: its signal aborts when the row\'s claim lapses, not claimTimeoutMs after the wait', async () => {
    const path = newFile();
    const store = open({ path, claimTimeoutMs: 300, busyTimeoutMs: 5_000 });
    // Another process holds the file's write lock for 600 ms: the claim waits for it (busy_timeout), blocking.
    const holder = new Worker(
      `const { DatabaseSync } = require('node:sqlite'); const { parentPort, workerData } = require('node:worker_threads');
       const db = new DatabaseSync(workerData); db.exec('BEGIN IMMEDIATE'); parentPort.postMessage('locked');
       Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 600); db.exec('COMMIT'); db.close();`,
      { eval: true, workerData: path },
    );
    await once(holder, 'message');
    let abortedAtStart: boolean | undefined;
    let abortedWhenTakenOver: boolean | undefined;
    const first = store.runOnce('k', async ({ signal }) => {
      abortedAtStart = signal.aborted;
      await new Promise((resolve) => setTimeout(resolve, 50));
      // The row's claim (claimTimeoutMs from when it was asked for) has lapsed: another process may take it now.
      const other = open({ path, claimTimeoutMs: 300 });
      expect(await other.runOnce('k', async () => {})).toEqual({ status: 'ran' });
      abortedWhenTakenOver = signal.aborted;
    });
    expect(await first).toEqual({ status: 'ran', warning: expect.stringMatching(/the effect ran twice/) });
    expect(abortedAtStart).toBe(true);
    expect(abortedWhenTakenOver).toBe(true);
    await holder.terminate();
  });

  it('two processes on one file: each of 200 keys claimed and run exactly once', async () => {
    const path = newFile();
    open({ path }); // creates the table before the racers start
    const racer = fileURLToPath(new URL('../support/sqlite-racer.ts', import.meta.url));
    const keys = Array.from({ length: 200 }, (_, i) => `key-${i}`);
    const children = ['forward', 'reversed'].map((order) => fork(racer, [path, JSON.stringify(keys), order], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }));
    await Promise.all(children.map((child) => once(child, 'message'))); // both ready: start together
    const answers = children.map((child) => once(child, 'message'));
    for (const child of children) child.send('go');
    const results = await Promise.all(answers.map(async (answer) => (await answer)[0] as Record<string, string>));
    const ranBy = keys.map((key) => results.filter((result) => result[key] === 'ran').length);
    expect(ranBy).toEqual(keys.map(() => 1));
    // Both really raced: each process ran some keys and found others busy or done.
    for (const result of results) expect(Object.values(result).filter((s) => s === 'ran').length).toBeGreaterThan(0);
  }, 30_000);

  it('tracks orders in <table>_tracked, made when the file is opened; a check-out reads only its page through the index', async () => {
    const path = newFile();
    const store = open({ path, table: 'shop_notifications' });
    const tracking = store.tracking!;
    await tracking.track({ payOrderId: 'P1', mchOrderNo: 'o-1', trackedAt: 10, expiresAt: 20 });
    await tracking.track({ payOrderId: 'P1', mchOrderNo: 'o-other', trackedAt: 11, expiresAt: 11 });
    await tracking.track({ payOrderId: 'P2', mchOrderNo: 'o-2', trackedAt: 12, expiresAt: 22 });
    await tracking.notFound('P1', 15);
    await tracking.notFound('P1', 16);
    await tracking.notFound('P-UNTRACKED', 16);
    // Oldest first, the first record kept, the first notFound time kept; then checked at 30, not due again before it.
    expect(await tracking.checkOut(12, 30, 1)).toEqual([{ payOrderId: 'P1', mchOrderNo: 'o-1', trackedAt: 10, expiresAt: 20, notFoundSince: 15 }]);
    expect(await tracking.checkOut(12, 30, 10)).toEqual([{ payOrderId: 'P2', mchOrderNo: 'o-2', trackedAt: 12, expiresAt: 22, notFoundSince: undefined }]);
    expect(await tracking.checkOut(29, 31, 10)).toEqual([]);
    await tracking.forget('P1');
    await tracking.forget('P1');
    expect((await tracking.checkOut(30, 31, 10)).map((o) => o.payOrderId)).toEqual(['P2']);
    const db = new DatabaseSync(path);
    try {
      expect(db.prepare('SELECT pay_order_id, checked_at FROM shop_notifications_tracked').all()).toEqual([{ pay_order_id: 'P2', checked_at: 31 }]);
      // However many orders a table holds, a check-out searches the checked_at index for its page, never scans it.
      const plan = db.prepare('EXPLAIN QUERY PLAN SELECT pay_order_id FROM shop_notifications_tracked WHERE checked_at <= 1 ORDER BY checked_at LIMIT 5').all();
      expect(plan.map((step) => step.detail)).toEqual([expect.stringMatching(/^SEARCH shop_notifications_tracked USING INDEX shop_notifications_tracked_due \(checked_at<\?\)$/)]);
    } finally {
      db.close();
    }
    store.close();
    opened.splice(opened.indexOf(store), 1);
    await expect(tracking.track({ payOrderId: 'P3', mchOrderNo: 'o-3', trackedAt: 1, expiresAt: 2 })).rejects.toThrow();
  });

  it('concurrent check-outs hand out each order once: two processes sweeping one file share 300 due orders', async () => {
    const path = newFile();
    const tracking = open({ path }).tracking!;
    const now = Date.now();
    for (let i = 0; i < 300; i++) await tracking.track({ payOrderId: `P-CO-${i}`, mchOrderNo: `co-${i}`, trackedAt: now - 1_000, expiresAt: now + 7_200_000 });
    const racer = fileURLToPath(new URL('../support/sqlite-checkout-racer.ts', import.meta.url));
    const children = [0, 1].map(() => fork(racer, [path, String(now), String(now + 1)], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }));
    await Promise.all(children.map((child) => once(child, 'message'))); // both ready: start together
    const answers = children.map((child) => once(child, 'message'));
    for (const child of children) child.send('go');
    const taken = await Promise.all(answers.map(async (answer) => (await answer)[0] as string[]));
    const all = taken.flat();
    expect(all).toHaveLength(300);
    expect(new Set(all).size).toBe(300);
    // Both really raced: each process was handed some orders.
    for (const ids of taken) expect(ids.length).toBeGreaterThan(0);
    console.log(`sqlite check-out race: ${JSON.stringify({ orders: 300, handedTo: taken.map((ids) => ids.length) })}`);
    // All checked at now + 1: none is due for a sweep whose cutoff is now, every one for a later sweep.
    expect(await tracking.checkOut(now, now + 2, 1_000)).toEqual([]);
    expect(await tracking.checkOut(now + 1, now + 2, 1_000)).toHaveLength(300);
  }, 30_000);

  it.each([
    [{ path: ':memory:' }, /path: must be a file path: an in-memory database/],
    [{ path: '' }, /path: must be a file path/],
    [{ path: 'file::memory:' }, /path: must be a file path/],
    [{ path: 42 }, /path: must be a file path/],
    [{ path: 'x.sqlite', table: 'a.b' }, /table: must be lowercase letters/],
    [{ path: 'x.sqlite', claimTimeoutMs: 0 }, /claimTimeoutMs: must be at least 1/],
    [{ path: 'x.sqlite', lease: 1 }, /lease/],
  ])('refuses %j', (options, message) => {
    expect(() => sqliteStore(options as never)).toThrow(GatewayValidationError);
    expect(() => sqliteStore(options as never)).toThrow(message);
  });

  it('a file that cannot be opened is a GatewayError naming the path', () => {
    expect(() => sqliteStore({ path: join(scratch, 'no-such-folder', 'x.sqlite') })).toThrow(GatewayError);
    expect(() => sqliteStore({ path: join(scratch, 'no-such-folder', 'x.sqlite') })).toThrow(/could not open ".*no-such-folder.*check that its folder exists/);
  });
});
