// Stores for tests that run on the memory store and on a SQLite file alike: each SQLite store a file of its own in
// a scratch directory, closed and removed after each test (the caller registers `closeScratchStores` in afterEach).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { memoryStore, type NotificationStore } from '../../src/index.js';
import { sqliteStore, type SqliteStore } from '../../src/stores/sqlite.js';
import { removeDir } from './servers/process.js';

let scratch: string | undefined;
const opened: SqliteStore[] = [];

/** A new memory store, or a SQLite store on a new file. */
export function scratchStore(kind: 'memory' | 'sqlite'): NotificationStore {
  if (kind === 'memory') return memoryStore();
  scratch ??= mkdtempSync(join(tmpdir(), 'pgsdk-sweep-'));
  const store = sqliteStore({ path: join(scratch, `store-${opened.length}.sqlite`) });
  opened.push(store);
  return store;
}

/** Closes every SQLite store made since the last call, and removes their files. */
export function closeScratchStores(): void {
  for (const store of opened.splice(0)) store.close();
  if (scratch !== undefined) removeDir(scratch);
  scratch = undefined;
}
