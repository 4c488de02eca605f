// `npm run bench` and `npm run size` measure ours next to stripe-node and openai-node: this folder's own
// install, made on first use so that a clone's `npm ci` does not carry them.
import { fileURLToPath } from 'node:url';
import { installOnDemand } from '../../scripts/lib/install-on-demand.mjs';

await installOnDemand(fileURLToPath(new URL('.', import.meta.url)), 'the peer SDKs', ['ci']);
