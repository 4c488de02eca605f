// npm's `prepare`: builds dist/ wherever the devDependencies are installed, that is on `npm ci`/`npm install` in a
// clone, `npm pack`, and an install from a git URL (npm installs the package's devDependencies first). Where they
// are not (`npm ci --omit=dev`), it says so and builds nothing instead of failing the install. The build's output
// goes to stderr: `npm pack --json` prints its JSON on stdout.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const tsup = fileURLToPath(new URL('../node_modules/.bin/tsup', import.meta.url));
if (!existsSync(tsup)) {
  console.error('payment-gateway-sdk: dist/ not built: the devDependencies are not installed (npm ci --omit=dev). Run npm ci to build it.');
  process.exit(0);
}
const npm = process.env.npm_execpath;
const build = spawnSync(npm ? process.execPath : 'npm', [...(npm ? [npm] : []), 'run', 'build'], { stdio: ['ignore', 2, 2] });
process.exit(build.status ?? 1);
