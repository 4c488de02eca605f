// Fails fast when the pinned development Node (devDependency node@24) is missing:
// vitest 5 and msw 3 crash obscurely on older Node versions.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const local = fileURLToPath(new URL('../node_modules/.bin/node', import.meta.url));
if (!existsSync(local)) {
  console.error('payment-gateway-sdk: node_modules/.bin/node is missing. Run `npm ci` first (it installs Node 24 for development).');
  process.exit(1);
}
const major = Number(process.versions.node.split('.')[0]);
if (major < 24) {
  console.error(`payment-gateway-sdk: development needs Node 24 (found ${process.version}). Run scripts through npm (npm test, npm run build) so node_modules/.bin/node comes first on PATH.`);
  process.exit(1);
}
