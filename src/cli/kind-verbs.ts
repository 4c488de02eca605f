/**
 * The `mock` verbs of each record kind the mock declares (`src/testing/domain/kinds.ts`): one per decision
 * (`refund-succeed`), and its mode (`refund-mode`, `--refund KEY` for one record), with their usage lines. A kind
 * has these verbs because it is declared.
 *
 * @module
 */
import { MOCK_KINDS } from '../testing/domain/kinds.js';
import { aliasOf, hasModes, nounOf, stateFieldOf, stateName, type MockControlVerb, type MockKindControl, type MockKindView, type MockRecordControl, type MockRecordControlVerb } from '../testing/domain/record-kind.js';
import { failure, FAILURE_OPTIONS, failureOf, helpRow, listed, NOTIFIED, optionRow, wholeNumber, type Answer, type TriggerSpec, type Values } from './trigger-spec.js';

const stateOf = (kind: MockKindView, state: unknown) => (typeof state === 'number' ? `${state} (${stateName(kind, state)})` : String(state));
const line = (kind: MockKindView, a: Answer) => `${kind.id} ${String(a[kind.id])}  ${kind.key} ${String(a[kind.key])}  ${stateFieldOf(kind)} ${stateOf(kind, a[stateFieldOf(kind)])}`;
const placeholder = (kind: MockKindView) => nounOf(kind).toUpperCase();
const decisions = (kind: MockKindView) => Object.entries(kind.decisions);
/** A decision's verb: its alias's (`pay`), else `<kind>-<decision>`. */
const decisionVerb = (kind: MockKindView, to: string) => aliasOf(kind, to)?.verb ?? `${kind.name}-${to}`;
const decisionVerbs = (kind: MockKindView) => decisions(kind).map(([to]) => decisionVerb(kind, to));
/** A kind's controls on one record that declare a verb, with it. */
const recordVerbs = (kind: MockKindView) =>
  (kind.recordControls ?? []).flatMap((control: MockRecordControl<never, never>) => (control.verb === undefined ? [] : [{ control, verb: control.verb as MockRecordControlVerb }]));
/** The verbs that take a record and nothing else: the decisions', then the controls' on one record without an option. */
const recordTakers = (kind: MockKindView) => [...decisionVerbs(kind), ...recordVerbs(kind).filter(({ verb }) => verb.option === undefined).map(({ verb }) => verb.name)];
/** The modes as the CLI lists them: those that hold first, then those that decide. */
const modes = (kind: MockKindView) => Object.entries(kind.modes).sort(([, a], [, b]) => Number(a !== undefined) - Number(b !== undefined)) as [string, string | undefined][];
const decisionOf = (kind: MockKindView, to: string | undefined) => decisions(kind).find(([name]) => name === to)?.[1];

/** What `mock <kind>-mode` prints of the answer `{ mode, <key>? }`. */
function modeLine(kind: MockKindView, a: Answer): string {
  const one = a[kind.key] !== undefined;
  const decision = decisionOf(kind, kind.modes[String(a.mode)]);
  const what =
    decision === undefined
      ? `${one ? 'it waits' : `coming ${kind.plural} wait`} in ${stateFieldOf(kind)} ${stateOf(kind, kind.states.held)} until mock ${decisionVerbs(kind).join('|')} ${placeholder(kind)}`
      : `${one ? 'it is' : `coming ${kind.plural} are`} ${decision.past} (${stateFieldOf(kind)} ${decision.to}) at once`;
  return `${kind.name} mode ${String(a.mode)}${one ? ` for ${kind.name} ${String(a[kind.key])}` : ''}: ${what}`;
}

/**
 * A kind's verbs: one per decision (its alias's, which calls the alias's route and says no more than whether it is
 * notified), then its mode if it has modes, then its controls on one record that declare a verb.
 */
export function verbsOf(kind: MockKindView): [string, TriggerSpec][] {
  const argument = (verb: string) => `${nounOf(kind)}: its ${kind.id} or your ${kind.key}, e.g. payment-gateway-sdk mock ${verb} ${nounOf(kind)}-1001`;
  const decided = decisions(kind).map(([to, decision]): [string, TriggerSpec] => {
    const verb = decisionVerb(kind, to);
    const alias = aliasOf(kind, to);
    const notified = kind.states.notified.includes(decision.to);
    const said = (a: Answer) => (alias !== undefined ? (notified ? NOTIFIED : '') : notified ? (a.notifyUrl === undefined ? '' : NOTIFIED) : '; no notification');
    return [verb, {
      route: (ref) => `${kind.plural}/${ref}/${alias?.path ?? 'settle'}`,
      ...(decision.failure ? { options: FAILURE_OPTIONS } : {}),
      body: (_ref, values) => ({ ...(alias === undefined ? { to } : {}), ...(decision.failure ? failure(values) : {}) }),
      argument: argument(verb),
      print: (a) => `${line(kind, a)}${decision.failure ? failureOf(a) : ''}${said(a)}`,
    }];
  });
  const onRecord = recordVerbs(kind).map(({ control, verb }): [string, TriggerSpec] => {
    const { option } = verb;
    const member = control.route?.member;
    return [verb.name, {
      route: (ref) => `${kind.plural}/${ref}/${control.path}`,
      ...(option === undefined ? {} : { options: [option.name] }),
      ...(option === undefined || member === undefined ? {} : { body: (_ref: string | undefined, values: Values) => ({ [member]: wholeNumber(values[option.name]) }) }),
      argument: argument(verb.name),
      print: (a) => `${line(kind, a)}${verb.said?.(a) ?? ''}`,
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
  return [...decided, ...(hasModes(kind) ? [[`${kind.name}-mode`, mode] as [string, TriggerSpec]] : []), ...onRecord];
}

type Control = MockKindControl<never>;
/** A control the CLI runs: the control, the verb it declares, the verb's name (`<kind>-<path>`) and its undoing control. */
interface ControlVerb {
  readonly control: Control;
  readonly verb: MockControlVerb;
  readonly name: string;
  readonly undo: Control | undefined;
}

/** A kind's controls that declare a verb; the undo is the kind's other control of the same path. */
const controlVerbs = (kind: MockKindView): ControlVerb[] =>
  (kind.controls ?? []).flatMap((control: Control) =>
    control.verb === undefined ? [] : [{ control, verb: control.verb, name: `${kind.name}-${control.path}`, undo: kind.controls?.find((other) => other !== control && other.path === control.path) }],
  );
/** The option of an argument's member: `ifCode` is `--if-code`. */
const flag = (member: string) => member.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
const optionsOf = (verb: MockControlVerb) => Object.entries(verb.options);
/** The member an option names in these values, if any (else the verb's argument names the target). */
const givenOption = (verb: MockControlVerb, values: Values) => optionsOf(verb).find(([member]) => typeof values[flag(member)] === 'string');
const undoing = ({ verb, undo }: ControlVerb, values: Values) => undo !== undefined && verb.undo !== undefined && values[verb.undo.option] === true;
/** `ORDER|--if-code CODE|--way-code CODE [--allow]`. */
const targetUsage = ({ verb }: ControlVerb) => `${[verb.positional.member.toUpperCase(), ...optionsOf(verb).map(([member, o]) => `--${flag(member)} ${o.value}`)].join('|')}${verb.undo ? ` [--${verb.undo.option}]` : ''}`;

/** A kind's verbs of its own controls: the target by the verb's argument or one option; the undo by its option. */
export function controlVerbsOf(kind: MockKindView): [string, TriggerSpec][] {
  return controlVerbs(kind).map((cv): [string, TriggerSpec] => {
    const { verb, name } = cv;
    const last = optionsOf(verb).at(-1);
    return [name, {
      route: () => `${kind.plural}/${cv.control.path}`,
      method: (values) => (undoing(cv, values) ? cv.undo : cv.control)?.method ?? cv.control.method,
      options: [...optionsOf(verb).map(([member]) => flag(member)), ...(verb.undo ? [verb.undo.option] : [])],
      positionals: 'optional',
      body: (ref, values) => {
        const option = givenOption(verb, values);
        return option ? { [option[0]]: String(values[flag(option[0])]) } : { [verb.positional.member]: String(ref) };
      },
      argument: `target: ${verb.positional.is}, ${listed(optionsOf(verb).map(([member, o]) => `--${flag(member)} ${o.value}`), 'or')}${last ? `, e.g. payment-gateway-sdk mock ${name} --${flag(last[0])} ${last[1].example}` : ''}`,
      print: (_answer, values = {}, ref = undefined) => {
        const option = givenOption(verb, values);
        const target = option ? `${option[1].names} ${String(values[flag(option[0])])}` : `${verb.positional.member} ${String(ref)}`;
        const ran = undoing(cv, values) ? cv.undo : cv.control;
        return ran?.said?.(target) ?? `${name}: done for the ${target}`;
      },
    }];
  });
}

/** Every declared kind's verbs: of its decisions and mode, then of its own controls. */
export const KIND_VERBS: Readonly<Record<string, TriggerSpec>> = Object.fromEntries(MOCK_KINDS.flatMap((kind) => [...verbsOf(kind), ...controlVerbsOf(kind)]));

/** The verbs that take `--err-code` and `--err-msg`. */
export const FAILURE_VERBS = MOCK_KINDS.flatMap((kind) => decisions(kind).filter(([, d]) => d.failure).map(([to]) => decisionVerb(kind, to)));

/** The options of each kind's control verbs (`--if-code`, `--allow`...) and of its verbs on one record (`--fee`), each with its type. */
const controlOptions = () => [
  ...MOCK_KINDS.flatMap((kind) => controlVerbs(kind)).flatMap((cv) => [
    ...optionsOf(cv.verb).map(([member]) => ({ option: flag(member), verb: cv.name, type: 'string' as const })),
    ...(cv.verb.undo ? [{ option: cv.verb.undo.option, verb: cv.name, type: 'boolean' as const }] : []),
  ]),
  ...MOCK_KINDS.flatMap(recordVerbs).flatMap(({ verb }) => (verb.option === undefined ? [] : [{ option: verb.option.name, verb: verb.name, type: 'string' as const }])),
];
/** The kinds with modes: each has a `<kind>-mode` verb and its `--<kind>` option. */
const moded = () => MOCK_KINDS.filter(hasModes);

/** Each kind's `--<kind>` option and its control verbs' options, and the message when another verb is given one. */
export const KIND_OPTIONS: Readonly<Record<string, string>> = Object.fromEntries([
  ...moded().map((kind) => [kind.name, `--${kind.name} is an option of ${kind.name}-mode`]),
  ...controlOptions().map(({ option, verb }) => [option, `--${option} is an option of ${verb}`]),
]);

/** The type of each of those options, for the command's parser. */
export const KIND_OPTION_TYPES: Readonly<Record<string, { readonly type: 'string' | 'boolean' }>> = Object.fromEntries([
  ...moded().map((kind) => [kind.name, { type: 'string' as const }]),
  ...controlOptions().map(({ option, type }) => [option, { type }]),
]);

/** The usage lines of each kind's verbs; `long`: with their options, as `mock <verb> --help` shows them. */
export function kindUsage(long: boolean): string[] {
  return MOCK_KINDS.flatMap((kind) => [
    `payment-gateway-sdk mock ${recordTakers(kind).join('|')} ${placeholder(kind)} [--url URL]${long ? ' [--err-code CODE] [--err-msg TEXT]' : ''}`,
    ...(hasModes(kind) ? [`payment-gateway-sdk mock ${kind.name}-mode ${modes(kind).map(([m]) => m).join('|')}${long ? ` [--${kind.name} ${placeholder(kind)}]` : ''} [--url URL]`] : []),
    ...recordVerbs(kind).flatMap(({ verb: { name, option } }) => (option === undefined ? [] : [`payment-gateway-sdk mock ${name} ${placeholder(kind)} --${option.name} ${option.value} [--url URL]`])),
  ]);
}

/** The usage lines of each kind's control verbs, e.g. `payment-gateway-sdk mock refund-unsupported ORDER|--if-code CODE|... [--allow] [--url URL]`. */
export function controlUsage(): string[] {
  return MOCK_KINDS.flatMap(controlVerbs).map((cv) => `payment-gateway-sdk mock ${cv.name} ${targetUsage(cv)} [--url URL]`);
}

/** What each kind's verbs do, for the command's usage: `mock refund-succeed|... REFUND decides a held refund (...); ...`. */
export function kindSummary(): string {
  return MOCK_KINDS.map((kind) => [
    `mock ${decisionVerbs(kind).join('|')} ${placeholder(kind)} decides ${hasModes(kind) ? 'a held' : 'an open'} ${nounOf(kind)} (${kind.id} or ${kind.key})`,
    ...recordVerbs(kind).map(({ verb }) => `mock ${verb.name} ${placeholder(kind)}${verb.option === undefined ? '' : ` --${verb.option.name} ${verb.option.value}`} ${verb.summary}`),
    ...(hasModes(kind) ? [`mock ${kind.name}-mode ${modes(kind).map(([m]) => m).join('|')} sets how the coming ${kind.plural} go (--${kind.name} ${placeholder(kind)}: one ${kind.name})`] : []),
    ...controlVerbs(kind).map((cv) => `mock ${cv.name} ${cv.verb.summary}`),
  ].join('; ')).join('; ');
}

/** What each kind's placeholder names, e.g. `REFUND is the refundOrderId or your mchRefundNo.` */
export const KIND_PLACEHOLDERS = MOCK_KINDS.map((kind) => `${placeholder(kind)} is the ${kind.id} or your ${kind.key}.`);

/** The help lines of each kind's verbs, and of its option. */
export function kindHelp(): { verbs: string[]; options: string[] } {
  const verbs = MOCK_KINDS.flatMap((kind) => {
    const described = modes(kind).map(([mode, to]) => (to === undefined ? `${mode} (wait in ${stateFieldOf(kind)} ${kind.states.held} until decided)` : mode === Object.keys(kind.modes)[0] ? `${mode} (the default)` : mode));
    return [
      ...decisions(kind).map(([to, d]) => helpRow(decisionVerb(kind, to), d.does)),
      ...recordVerbs(kind).map(({ verb }) => helpRow(verb.name, verb.help)),
      ...(hasModes(kind)
        ? [helpRow(`${kind.name}-mode`, `how the coming ${kind.plural} go: ${listed(described, 'or')};`), helpRow('', `--${kind.name} ${kind.key.toUpperCase()}: only that ${kind.name} (its mode wins over the mode of all)`)]
        : []),
    ];
  });
  const options = [
    ...moded().map((kind) => optionRow(`--${kind.name} ${placeholder(kind)}`, `${kind.name}-mode: the one ${kind.name} (${kind.key}) the mode is for`)),
    ...MOCK_KINDS.flatMap(recordVerbs).flatMap(({ verb: { name, option: o } }) => (o === undefined ? [] : [optionRow(`--${o.name} ${o.value}`, `${name}: ${o.help}`)])),
  ];
  const controls = MOCK_KINDS.flatMap(controlVerbs);
  return {
    verbs: [...verbs, ...controls.flatMap((cv) => cv.verb.help.map((text, i) => helpRow(i === 0 ? cv.name : '', text)))],
    options: [
      ...options,
      ...controls.flatMap((cv) => [
        ...optionsOf(cv.verb).map(([member, o]) => optionRow(`--${flag(member)} ${o.value}`, `${cv.name}: ${o.help} (e.g. ${o.example})`)),
        ...(cv.verb.undo ? [optionRow(`--${cv.verb.undo.option}`, `${cv.name}: ${cv.verb.undo.help}`)] : []),
      ]),
    ],
  };
}
