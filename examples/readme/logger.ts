// The README's "Logging" block: the lines between the readme markers are the README's, written by npm run docs:readme.
import type { GatewayClientOptions } from 'payment-gateway-sdk';

declare const credentials: Pick<GatewayClientOptions, 'baseUrl' | 'mchNo' | 'appId' | 'secret'>;
/** Your structured logger (pino, bunyan...). */
declare const log: Record<'error' | 'warn' | 'info' | 'debug', (fields: object | undefined, message: string) => void>;

// #region readme
import { GatewayClient } from 'payment-gateway-sdk';

const client = new GatewayClient({
  ...credentials,
  logLevel: 'info',
  logger: {
    error: (message, fields) => log.error(fields, message),
    warn: (message, fields) => log.warn(fields, message),
    info: (message, fields) => log.info(fields, message),
    debug: (message, fields) => log.debug(fields, message),
  },
});
// #endregion readme

export { client };
