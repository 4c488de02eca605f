// Entry of the scenario on Node, Bun and Deno: the package as a consumer imports it, the input from the
// E2E_INPUT environment variable, one JSON line out. Exit code 1 when the scenario fails.
import * as sdk from 'payment-gateway-sdk';
import { runScenario } from './scenario.mjs';

try {
  const result = await runScenario(sdk, JSON.parse(globalThis.process.env.E2E_INPUT));
  console.log(JSON.stringify({ ok: true, ...result }));
} catch (error) {
  console.log(JSON.stringify({ ok: false, error: String(error?.message ?? error) }));
  globalThis.process.exitCode = 1;
}
