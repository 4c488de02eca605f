// Entry of the scenario on workerd: a Worker whose fetch handler runs it with the input from the
// E2E_INPUT binding and answers the JSON result (status 500 when the scenario fails).
import * as sdk from 'payment-gateway-sdk';
import { runScenario } from './scenario.mjs';

export default {
  async fetch(_request, env) {
    try {
      return Response.json({ ok: true, ...(await runScenario(sdk, env.E2E_INPUT)) });
    } catch (error) {
      return Response.json({ ok: false, error: String(error?.message ?? error) }, { status: 500 });
    }
  },
};
