// examples/python/checkout_test.py (Python, standard library only) against the built command, as the mock
// guide tells a Python backend to run it: it must pass, stop the mock, and leave its port free.
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, run } from '../../scripts/lib/shipped-package.mjs';
import { ensureBuilt } from '../support/build.js';

beforeAll(ensureBuilt, 180_000);

/** Whether a TCP port on loopback can be listened on again. */
function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

describe('examples/python/checkout_test.py', () => {
  it('passes against the built command (node dist/cli.js, no npx), stops the mock, and frees its port', async () => {
    const env: NodeJS.ProcessEnv = { ...process.env, PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}` };
    delete env.MOCK_COMMAND;
    const result = await run('python3', [join('examples', 'python', 'checkout_test.py')], { cwd: repoRoot, env, timeoutMs: 60_000, allowFailure: true });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/notification verified: order py-\d+ paid, 1999 USD/);
    expect(result.stdout).toContain('the mock recorded: accepted: the body was "SUCCESS" (HTTP 200)');
    expect(result.stdout).toContain('mock stopped, exit code 0');
    const port = Number(/mock gateway at http:\/\/127\.0\.0\.1:(\d+)/.exec(result.stdout)?.[1]);
    expect(port).toBeGreaterThan(0);
    expect(await portIsFree(port)).toBe(true);
  }, 90_000);
});
