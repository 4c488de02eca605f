import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { NOTIFICATIONS_GUIDE, withNotificationKindsTable, withOperationsTable } from '../../scripts/operations-table.js';
import { CLIENT_DEFAULTS, RETRY_DEFAULTS } from '../../src/index.js';
import { notificationKinds } from '../../src/notify/kinds.js';
import { operations, type OperationName } from '../../src/operations/table.js';

// The README's operation table is generated from the operation table (npm run docs:operations); the
// defaults table is written by hand and checked here: the docs cannot drift from the code.
const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

describe('README', () => {
  it('holds the operation table as the operations declare it (run npm run docs:operations after changing one)', () => {
    expect(readme).toBe(withOperationsTable(readme));
  });

  it('holds the notification-kind table, in the README and the notifications guide, as the kinds declare it', () => {
    const guide = readFileSync(new URL(`../../${NOTIFICATIONS_GUIDE}`, import.meta.url), 'utf8');
    expect(guide).toBe(withNotificationKindsTable(guide));
    // Every kind has its row, with each of its handlers.
    for (const kind of Object.values(notificationKinds)) {
      const row = readme.split('\n').find((line) => line.startsWith(`| ${kind.name} | `));
      for (const handler of Object.keys(kind.handlers)) expect(row).toContain(`\`${handler}\`: `);
    }
  });

  it.each(Object.keys(operations) as OperationName[])('documents %s at its path', (operation) => {
    const row = readme.split('\n').find((line) => line.startsWith(`| \`${operation}(`));
    expect(row, `an Operations row for ${operation}`).toBeDefined();
    expect(row).toContain(`\`${operations[operation].path}\``);
  });

  it('states the defaults the client uses', () => {
    expect(readme).toContain(`| \`timeout\` | \`${CLIENT_DEFAULTS.timeout}\` |`);
    expect(readme).toContain(`| \`totalTimeout\` | \`${CLIENT_DEFAULTS.totalTimeout}\` |`);
    expect(readme).toContain(`| \`retry.maxRetries\` | \`${RETRY_DEFAULTS.maxRetries}\` |`);
    expect(readme).toContain(`| \`retry.initialDelayMs\` | \`${RETRY_DEFAULTS.initialDelayMs}\` |`);
    expect(readme).toContain(`| \`retry.maxDelayMs\` | \`${RETRY_DEFAULTS.maxDelayMs}\` |`);
    expect(readme).toContain(`| \`retry.maxRetryAfterMs\` | \`${RETRY_DEFAULTS.maxRetryAfterMs}\` |`);
    expect(readme).toContain(`| \`version\` | \`'${CLIENT_DEFAULTS.version}'\` |`);
    expect(readme).toContain(`| \`successCode\` | \`${CLIENT_DEFAULTS.successCode}\` |`);
  });

  it('shows the test command', () => {
    expect(readme).toMatch(/npm ci.*\n.*npm test/);
  });
});
