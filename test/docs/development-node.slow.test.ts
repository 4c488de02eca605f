// The README's Development section: the test scripts run on Node 24 whatever Node the machine has, through
// scripts/with-node24.mjs (directly on Node 24, else on npx's node@24.21.0), and pass the command's exit code on.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot, run } from '../../scripts/lib/shipped-package.mjs';

const WITH_NODE24 = join(repoRoot, 'scripts', 'with-node24.mjs');
const PROBE = ['node', '-e', 'console.log(process.version); process.exit(3)'];

// The machine's own Node when it is older than 24 (CI's is 20): npm puts the one running these tests first on PATH.
const olderNode = ['/usr/bin/node', '/usr/local/bin/node', '/bin/node'].find(
  (file) => existsSync(file) && Number(execFileSync(file, ['-p', 'process.versions.node'], { encoding: 'utf8' }).split('.')[0]) < 24,
);

describe('scripts/with-node24.mjs', () => {
  it('on Node 24 runs the command on this Node, and exits with its code', async () => {
    const { code, stdout } = await run(process.execPath, [WITH_NODE24, ...PROBE], { allowFailure: true });
    expect(stdout.trim()).toBe(process.version);
    expect(code).toBe(3);
  });

  it.skipIf(olderNode === undefined)('on an older Node runs the command on Node 24.21.0 from npx, saying so, and exits with its code', async () => {
    const { code, stdout, stderr } = await run(olderNode!, [WITH_NODE24, ...PROBE], { allowFailure: true, timeoutMs: 300_000 });
    expect(stdout.trim().split('\n').pop()).toBe('v24.21.0');
    expect(stderr).toMatch(/older than development needs: running `node` on Node 24\.21\.0 from npx/);
    expect(code).toBe(3);
  }, 300_000);
});
