// npm's `prepack` and `prepare` build dist/, on the installer's own Node, unless dist/ is already the build of
// the sources as they are (scripts/lib/dist-fresh.mjs): a pack or a git install then builds once.
// `prepack` (npm pack, npm publish) runs before the files are packed and fails loudly where it cannot build, so
// that no tarball ever ships without dist/. `prepare` (npm ci or npm install in a clone, an install from a git
// URL, where npm installs the package's devDependencies first) builds; where the devDependencies are not
// installed (`npm ci --omit=dev`) it says so and builds nothing instead of failing the install. The build's
// output goes to stderr: `npm pack --json` prints its JSON on stdout.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { distIsFresh } from './lib/dist-fresh.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
if (distIsFresh(root)) process.exit(0);

if (!existsSync(`${root}node_modules/.bin/tsup`)) {
  if (process.env.npm_lifecycle_event === 'prepack') {
    console.error('payment-gateway-sdk: cannot pack: dist/ is built first, and the build tools (the devDependencies) are not installed. Run `npm ci`, then pack again.');
    process.exit(1);
  }
  console.error('payment-gateway-sdk: dist/ not built: the devDependencies are not installed (npm ci --omit=dev). Run npm ci to build it.');
  process.exit(0);
}
const npm = process.env.npm_execpath;
const build = spawnSync(npm ? process.execPath : 'npm', [...(npm ? [npm] : []), 'run', 'build'], { stdio: ['ignore', 2, 2] });
process.exit(build.status ?? 1);
