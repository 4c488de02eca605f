import { describe, expect, it } from 'vitest';
import {
  GatewayApiError,
  GatewayEmptyResponseError,
  GatewayError,
  GatewayResponseError,
  GatewaySignatureError,
  GatewayValidationError,
  isGatewayError,
} from '../../src/index.js';

describe('error classes', () => {
  it('have stable names and a subclass chain', () => {
    const error = new GatewayEmptyResponseError('empty', { operation: 'close', status: 200, body: '' });
    expect(error.name).toBe('GatewayEmptyResponseError');
    expect(error).toBeInstanceOf(GatewayResponseError);
    expect(error).toBeInstanceOf(GatewayError);
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(GatewayApiError);
    expect(error.operation).toBe('close');
  });

  it('are recognised across package copies by their Symbol.for brand', () => {
    // An error made by another copy of the package (e.g. the CJS build) has the same brand but another prototype.
    const foreign = Object.assign(new Error('from the other copy'), { name: 'GatewaySignatureError' });
    Object.defineProperty(foreign, Symbol.for('payment-gateway-sdk.error'), { value: ['GatewaySignatureError', 'GatewayError'] });
    expect(isGatewayError(foreign)).toBe(true);
    expect(foreign instanceof GatewaySignatureError).toBe(true);
    expect(foreign instanceof GatewayValidationError).toBe(false);
    expect(isGatewayError(new Error('plain'))).toBe(false);
    expect(isGatewayError(null)).toBe(false);
  });

  it('keep the cause', () => {
    const cause = new Error('root');
    expect(new GatewayError('wrapped', { cause }).cause).toBe(cause);
  });

  it('GatewayApiError leads with what to do and keeps what the gateway said', () => {
    const error = new GatewayApiError(11, '参数有误[amount]', { operation: 'unifiedOrder' });
    expect(error.message).toBe('The gateway refused a parameter: correct the one its message names. The gateway answered unifiedOrder with code 11: 参数有误[amount]');
    expect(error.reason).toBe('parameter_invalid');
  });
});
