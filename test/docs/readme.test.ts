import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CLIENT_DEFAULTS, operations, RETRY_DEFAULTS, type OperationName } from '../../src/index.js';

// The README's tables are written by hand; these checks keep them derived from the endpoint table and
// the defaults, so the docs cannot drift from the code.
const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

describe('README', () => {
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
