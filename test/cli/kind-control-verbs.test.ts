// A kind's own control that declares a verb is a `mock <kind>-<path>` verb because it is declared: its target by the
// verb's argument or one option, its undo (the kind's other control of the same path) by an option; the texts are the
// declaration's. The scratch kind below exists only here; refunds' `refund-unsupported` is one such verb
// (test/cli/mock-trigger.test.ts runs it against a mock).
import * as z from 'zod/mini';
import { describe, expect, it } from 'vitest';
import { controlUsage, controlVerbsOf, KIND_OPTIONS, KIND_VERBS, kindHelp } from '../../src/cli/kind-verbs.js';
import { MOCK_KINDS } from '../../src/testing/domain/kinds.js';
import type { MockKindControl, MockKindView } from '../../src/testing/domain/record-kind.js';
import { MOCK_MESSAGES } from '../../src/testing/index.js';
import { MESSAGES } from '../../src/testing/domain/refusals.js';

const control = (name: string, method: 'POST' | 'DELETE', extra: Partial<MockKindControl<never>>): MockKindControl<never> => ({
  name, argument: 'scope', method, path: 'blocked', body: '{ country | payee }', does: name, bodySchema: z.object({}), run: () => ({}), ...extra,
});

const payoutKind = {
  name: 'payout', plural: 'payouts', label: 'Payout', id: 'payoutId', key: 'mchPayoutNo',
  states: { names: { Sending: 1 }, open: [1], notified: [], held: 1 }, modes: {}, decisions: {}, columns: [], modeDoes: '', settleDoes: '',
  controls: [
    control('blockPayouts', 'POST', {
      verb: {
        positional: { member: 'payee', is: 'a payee (its account)' },
        options: { countryCode: { value: 'CC', names: 'country', help: 'every payee of this country', example: 'FR' } },
        undo: { option: 'unblock', help: 'undo; payouts go again' },
        help: ['payouts to a payee or a country are refused;', '--unblock undoes it'],
        summary: 'blocks payouts',
      },
      said: (target) => `payouts to the ${target} are blocked`,
    }),
    control('unblockPayouts', 'DELETE', { said: (target) => `payouts to the ${target} go again` }),
  ],
} satisfies MockKindView;

describe("a kind's control verb, from its declaration", () => {
  const [[name, spec] = ['', undefined], ...others] = controlVerbsOf(payoutKind);

  it('is one verb, <kind>-<path>, with the other members as options and the undo option', () => {
    expect(others).toEqual([]);
    expect(name).toBe('payout-blocked');
    expect(spec?.options).toEqual(['country-code', 'unblock']);
    expect(spec?.positionals).toBe('optional');
    expect(spec?.route('x')).toBe('payouts/blocked');
    expect(spec?.argument).toBe('target: a payee (its account), --country-code CC, e.g. payment-gateway-sdk mock payout-blocked --country-code FR');
  });

  it('sends the target by the argument or the option; the undo runs the other control', () => {
    expect(spec?.method?.({})).toBe('POST');
    expect(spec?.method?.({ unblock: true })).toBe('DELETE');
    expect(spec?.body?.('acct-1', {})).toEqual({ payee: 'acct-1' });
    expect(spec?.body?.(undefined, { 'country-code': 'FR' })).toEqual({ countryCode: 'FR' });
    expect(spec?.print({}, {}, 'acct-1')).toBe('payouts to the payee acct-1 are blocked');
    expect(spec?.print({}, { 'country-code': 'FR', unblock: true }, undefined)).toBe('payouts to the country FR go again');
  });

  it("refunds' refund-unsupported is one: the declared kinds' control verbs are in the command, their options and help", () => {
    expect(KIND_VERBS['refund-unsupported']?.options).toEqual(['if-code', 'way-code', 'allow']);
    expect(controlUsage()).toEqual(['payment-gateway-sdk mock refund-unsupported ORDER|--if-code CODE|--way-code CODE [--allow] [--url URL]']);
    expect(KIND_OPTIONS).toMatchObject({ 'if-code': '--if-code is an option of refund-unsupported', allow: '--allow is an option of refund-unsupported' });
    expect(kindHelp().options).toContain('      --way-code CODE  refund-unsupported: every order of this way code (e.g. QR_CASHIER)');
  });
});

describe('MOCK_MESSAGES', () => {
  it("is the gateway's texts and each declared kind's own, no name given twice", () => {
    const own = MOCK_KINDS.flatMap((kind) => Object.keys(kind.messages ?? {}));
    expect(own).toContain('refundUnsupported');
    expect(new Set(own).size).toBe(own.length);
    expect(own.filter((key) => Object.hasOwn(MESSAGES, key))).toEqual([]);
    expect(Object.keys(MOCK_MESSAGES).sort()).toEqual([...Object.keys(MESSAGES), ...own].sort());
  });
});

describe("mock --help's rows", () => {
  it('never run a verb or an option into its text: a name too long for the gutter has a line of its own', () => {
    const { verbs, options } = kindHelp();
    const lines = (rows: readonly string[]) => rows.flatMap((row) => row.split('\n'));
    expect(lines(verbs)).toContain('  settlement-processing');
    // A line is a name alone, or its text starts after the gutter (20 columns for a verb, 17 for an option), a space before it.
    for (const line of lines(verbs)) expect(/^ {2}\S+$/.test(line) || line[21] === ' ').toBe(true);
    for (const line of lines(options)) expect(/^ {6}\S+( \S+)?$/.test(line) || line[22] === ' ').toBe(true);
  });
});
