/**
 * The mock's tools beside the six operations: the control API (`/_mock/...`), the cashier page
 * (`/cashier/{payOrderId}`) and the dashboard (`/`). All of them act through {@link MockGateway}'s
 * public methods, so the pages, the JSON API and a JavaScript test do the same thing.
 *
 * @module
 */
import type { MockGateway } from '../mock-gateway.js';
import { handleCashier } from './cashier-page.js';
import { handleControl } from './control-api.js';
import { handleDashboard } from './dashboard-page.js';

/** The tool's response for `path` (below the gateway's base), or `undefined` when no tool serves it. */
export async function routeTools(gateway: MockGateway, request: Request, path: string, base: string): Promise<Response | undefined> {
  return (
    (await handleControl(gateway, request, path)) ??
    handleCashier(gateway, request, path, base) ??
    handleDashboard(() => gateway.state(), request, path, base)
  );
}
