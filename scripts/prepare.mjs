// npm's `prepack` and `prepare` build dist/, on the installer's own Node.
// `prepack` (npm pack, npm publish) builds before the files are packed and fails loudly where it cannot, so that
// no tarball ever ships without dist/; `prepare` then runs in the same pack and does not build again.
// `prepare` alone (npm ci or npm install in a clone, an install from a git URL, where npm installs the package's
// devDependencies first) builds; where the devDependencies are not installed (`npm ci --omit=dev`) it says so
// and builds nothing instead of failing the install. The build's output goes to stderr: `npm pack --json`
// prints its JSON on stdout.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const packing = process.env.npm_lifecycle_event === 'prepack';
if (!packing && ['pack', 'publish'].includes(process.env.npm_command ?? '')) process.exit(0);

const tsup = fileURLToPath(new URL('../node_modules/.bin/tsup', import.meta.url));
if (!existsSync(tsup)) {
  if (packing) {
    console.error('payment-gateway-sdk: cannot pack: dist/ is built first, and the build tools (the devDependencies) are not installed. Run `npm ci`, then pack again.');
    process.exit(1);
  }
  console.error('payment-gateway-sdk: dist/ not built: the devDependencies are not installed (npm ci --omit=dev). Run npm ci to build it.');
  process.exit(0);
}
const npm = process.env.npm_execpath;
const build = spawnSync(npm ? process.execPath : 'npm', [...(npm ? [npm] : []), 'run', 'build'], { stdio: ['ignore', 2, 2] });
process.exit(build.status ?? 1);
