// Runs a development command (vitest, tsx, a script) on Node 24, which vitest 5 and msw 3 need: directly when
// this Node is 24 or newer, else under `npx -p node@24.21.0` (fetched once into npx's cache), so that
// `npm ci && npm test` works on a machine whose Node is older. Installing is not a development command: the
// build (`prepare`) runs on the installer's own Node.
// Usage: node scripts/with-node24.mjs <command> [args...]
import { spawn } from 'node:child_process';

const DEVELOPMENT_NODE = '24.21.0';

const [command, ...args] = process.argv.slice(2);
if (command === undefined) {
  console.error('usage: node scripts/with-node24.mjs <command> [args...]');
  process.exit(2);
}
const recent = Number(process.versions.node.split('.')[0]) >= 24;
if (!recent) console.error(`payment-gateway-sdk: Node ${process.version} is older than development needs: running \`${command}\` on Node ${DEVELOPMENT_NODE} from npx.`);
// npx puts the fetched node first on PATH, so `node` and every `#!/usr/bin/env node` bin under it run on Node 24.
const [file, argv] = recent ? [command === 'node' ? process.execPath : command, args] : ['npx', ['--yes', '-p', `node@${DEVELOPMENT_NODE}`, '--', command, ...args]];
const child = spawn(file, argv, { stdio: 'inherit' });
// A terminal's Ctrl-C reaches the whole group; a signal to this process alone is passed on.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
child.on('error', (error) => {
  console.error(`payment-gateway-sdk: could not start \`${file}\`: ${error.message}`);
  process.exit(1);
});
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 128 : 1)));
