// The mock without its optional peers, in a child process whose imports of msw and node:http throw
// (test/fixtures/mock-without-msw.ts).
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

describe('packaging of payment-gateway-sdk/testing', () => {
  it('works without msw and without importing node:http; handlers explain what is missing', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'test/fixtures/mock-without-msw.ts'], { cwd: root });
    expect(JSON.parse(stdout)).toEqual({
      fetchStatus: 200,
      fetchCode: 9999,
      handlers: 'gateway.handlers needs msw, an optional peer dependency: npm install --save-dev msw',
      listen: true,
    });
  });
});
