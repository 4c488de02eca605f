// A folder with a package.json and lockfile of its own (the runtimes of test:runtimes, the peer SDKs of the
// bench), installed when first needed, apart from the SDK's devDependencies: a clone's `npm ci` stays lean.
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { npm } from './shipped-package.mjs';

/**
 * Installs `dir` from its lockfile when its node_modules is missing or older than the lockfile, with
 * `npmArgs` (e.g. `['ci']`); says so first, naming `what`.
 */
export async function installOnDemand(dir, what, npmArgs) {
  const installed = await stat(join(dir, 'node_modules', '.package-lock.json')).catch(() => undefined);
  const lock = await stat(join(dir, 'package-lock.json'));
  if (installed && installed.mtimeMs >= lock.mtimeMs) return;
  console.log(`  installing ${what} (${join(dir, 'package-lock.json')}) ...`);
  await npm([...npmArgs, '--no-audit', '--no-fund'], { cwd: dir, timeoutMs: 600_000, stdio: 'inherit' });
}
