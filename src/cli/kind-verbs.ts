/**
 * The `mock` verbs of each record kind the mock declares (`src/testing/domain/kinds.ts`): one per decision
 * (`refund-succeed`), and its mode (`refund-mode`, `--refund KEY` for one record), with their usage lines. A kind
 * has these verbs because it is declared.
 *
 * @module
 */
import { MOCK_KINDS } from '../testing/domain/kinds.js';
import { stateName, type MockKindView } from '../testing/domain/record-kind.js';
import { failure, FAILURE_OPTIONS, failureOf, listed, NOTIFIED, type Answer, type TriggerSpec } from './trigger-spec.js';

const stateOf = (kind: MockKindView, state: unknown) => (typeof state === 'number' ? `${state} (${stateName(kind, state)})` : String(state));
const line = (kind: MockKindView, a: Answer) => `${kind.id} ${String(a[kind.id])}  ${kind.key} ${String(a[kind.key])}  state ${stateOf(kind, a.state)}`;
const placeholder = (kind: MockKindView) => kind.name.toUpperCase();
const decisions = (kind: MockKindView) => Object.entries(kind.decisions);
const decisionVerbs = (kind: MockKindView) => decisions(kind).map(([to]) => `${kind.name}-${to}`);
/** The modes as the CLI lists them: those that hold first, then those that decide. */
const modes = (kind: MockKindView) => Object.entries(kind.modes).sort(([, a], [, b]) => Number(a !== undefined) - Number(b !== undefined)) as [string, string | undefined][];
const decisionOf = (kind: MockKindView, to: string | undefined) => decisions(kind).find(([name]) => name === to)?.[1];

/** What `mock <kind>-mode` prints of the answer `{ mode, <key>? }`. */
function modeLine(kind: MockKindView, a: Answer): string {
  const one = a[kind.key] !== undefined;
  const decision = decisionOf(kind, kind.modes[String(a.mode)]);
  const what =
    decision === undefined
      ? `${one ? 'it waits' : `coming ${kind.plural} wait`} in state ${stateOf(kind, kind.states.held)} until mock ${decisionVerbs(kind).join('|')} ${placeholder(kind)}`
      : `${one ? 'it is' : `coming ${kind.plural} are`} ${decision.past} (state ${decision.to}) at once`;
  return `${kind.name} mode ${String(a.mode)}${one ? ` for ${kind.name} ${String(a[kind.key])}` : ''}: ${what}`;
}

/** A kind's verbs: one per decision, then its mode. */
export function verbsOf(kind: MockKindView): [string, TriggerSpec][] {
  const argument = (verb: string) => `${kind.name}: its ${kind.id} or your ${kind.key}, e.g. payment-gateway-sdk mock ${verb} ${kind.name}-1001`;
  const decided = decisions(kind).map(([to, decision]): [string, TriggerSpec] => {
    const verb = `${kind.name}-${to}`;
    const notified = kind.states.notified.includes(decision.to);
    return [verb, {
      route: (ref) => `${kind.plural}/${ref}/settle`,
      ...(decision.failure ? { options: FAILURE_OPTIONS } : {}),
      body: (_ref, values) => ({ to, ...(decision.failure ? failure(values) : {}) }),
      argument: argument(verb),
      print: (a) => `${line(kind, a)}${decision.failure ? failureOf(a) : ''}${notified ? (a.notifyUrl === undefined ? '' : NOTIFIED) : '; no notification'}`,
    }];
  });
  const choices = modes(kind).map(([mode]) => mode);
  const mode: TriggerSpec = {
    route: () => `${kind.plural}/mode`,
    options: [kind.name],
    body: (chosen, values) => ({ mode: String(chosen), ...(typeof values[kind.name] === 'string' ? { [kind.key]: values[kind.name] as string } : {}) }),
    choices,
    argument: `mode: ${listed(choices, 'or')}, e.g. payment-gateway-sdk mock ${kind.name}-mode ${choices[0]}`,
    print: (a) => modeLine(kind, a),
  };
  return [...decided, [`${kind.name}-mode`, mode]];
}

/** Every declared kind's verbs. */
export const KIND_VERBS: Readonly<Record<string, TriggerSpec>> = Object.fromEntries(MOCK_KINDS.flatMap(verbsOf));

/** The verbs that take `--err-code` and `--err-msg`. */
export const FAILURE_VERBS = MOCK_KINDS.flatMap((kind) => decisions(kind).filter(([, d]) => d.failure).map(([to]) => `${kind.name}-${to}`));

/** Each kind's `--<kind>` option, and the message when another verb is given it. */
export const KIND_OPTIONS = Object.fromEntries(MOCK_KINDS.map((kind) => [kind.name, `--${kind.name} is an option of ${kind.name}-mode`]));

/** The usage lines of each kind's verbs; `long`: with their options, as `mock <verb> --help` shows them. */
export function kindUsage(long: boolean): string[] {
  return MOCK_KINDS.flatMap((kind) => [
    `payment-gateway-sdk mock ${decisionVerbs(kind).join('|')} ${placeholder(kind)} [--url URL]${long ? ' [--err-code CODE] [--err-msg TEXT]' : ''}`,
    `payment-gateway-sdk mock ${kind.name}-mode ${modes(kind).map(([m]) => m).join('|')}${long ? ` [--${kind.name} ${placeholder(kind)}]` : ''} [--url URL]`,
  ]);
}

/** What each kind's placeholder names, e.g. `REFUND is the refundOrderId or your mchRefundNo.` */
export const KIND_PLACEHOLDERS = MOCK_KINDS.map((kind) => `${placeholder(kind)} is the ${kind.id} or your ${kind.key}.`);

/** The help lines of each kind's verbs, and of its option. */
export function kindHelp(): { verbs: string[]; options: string[] } {
  const row = (name: string, text: string) => `  ${name.padEnd(20)}${text}`;
  const verbs = MOCK_KINDS.flatMap((kind) => {
    const described = modes(kind).map(([mode, to]) => (to === undefined ? `${mode} (wait in state ${kind.states.held} until decided)` : mode === Object.keys(kind.modes)[0] ? `${mode} (the default)` : mode));
    return [
      ...decisions(kind).map(([to, d]) => row(`${kind.name}-${to}`, d.does)),
      row(`${kind.name}-mode`, `how the coming ${kind.plural} go: ${listed(described, 'or')};`),
      row('', `--${kind.name} ${kind.key.toUpperCase()}: only that ${kind.name} (its mode wins over the mode of all)`),
    ];
  });
  const options = MOCK_KINDS.map((kind) => `      ${`--${kind.name} ${placeholder(kind)}`.padEnd(17)}${kind.name}-mode: the one ${kind.name} (${kind.key}) the mode is for`);
  return { verbs, options };
}
