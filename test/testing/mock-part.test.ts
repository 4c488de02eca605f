// A part of the mock (not a record kind of the generic desk) is a declaration: its facade methods, control routes,
// members of the state, due hook, operation steps, CLI verbs, list lines and dashboard sections exist because it is
// declared. The scratch part below is declared here and nowhere in src/: operations are a closed table, so it borrows
// one row's name (executeDivision) for its step.
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { partHelp, partUsage, partVerbsOf } from '../../src/cli/part-verbs.js';
import { failureOf } from '../../src/cli/trigger-spec.js';
import { parseInput } from '../../src/protocol/schemas/parse.js';
import { GatewayValidationError } from '../../src/errors/index.js';
import { SimulatedClock } from '../../src/testing/domain/clock.js';
import { MOCK_KINDS } from '../../src/testing/domain/kinds.js';
import { MerchantRegistry } from '../../src/testing/domain/merchants.js';
import { createPartWorlds, defineMockPart, partOperations, partState, routeOf, runDue, type MockPartControl, type MockPartView, type MockPartWorlds } from '../../src/testing/domain/mock-part.js';
import { OPERATIONS } from '../../src/testing/domain/operations.js';
import { MOCK_PARTS } from '../../src/testing/domain/parts.js';
import { createDesks } from '../../src/testing/domain/kinds.js';
import { CONTROL_ROUTES, partRoutes } from '../../src/testing/http/control-routes.js';
import { formatAmount, formatTime, html, section } from '../../src/testing/pages/html.js';
import { addPartMethods } from '../../src/testing/part-methods.js';
import { createMockGateway } from '../../src/testing/index.js';
import { MERCHANT, ORIGIN, START } from '../support/raw-gateway.js';

interface Stamp {
  readonly at: number;
  readonly label: string;
}

/** The scratch part's world: stamps made by a control, by its operation and by its due hook, and the clock. */
interface StampWorld {
  readonly clock: SimulatedClock;
  readonly stamps: Stamp[];
  color: string;
  dueRuns: number;
}

interface StampState {
  readonly stamps: readonly Stamp[];
}

const stampSchema = z.strictObject({ label: z.optional(z.string({ error: 'must be a string' })), color: z.optional(z.enum(['red', 'blue'], { error: "must be 'red' or 'blue'" })) });

/** A control whose argument is a segment of its path, not a body. */
const dropStamp = {
  name: 'dropStamp', argument: 'label', method: 'POST', path: 'stamps/{label}/drop', does: 'drops the stamps of a label',
  run: (world: StampWorld, label: string) => {
    const dropped = world.stamps.filter((s) => s.label === label).length;
    world.stamps.splice(0, world.stamps.length, ...world.stamps.filter((s) => s.label !== label));
    return { label, dropped };
  },
} as const satisfies MockPartControl<StampWorld>;

const stampPart = defineMockPart<StampWorld, StampState>()({
  name: 'stamp',
  world: ({ clock }) => ({ clock, stamps: [], color: 'red', dueRuns: 0 }),
  operations: {
    executeDivision: (world, { app, params }, interrupted) => {
      world.stamps.push({ at: world.clock.now(), label: `${app.mchNo} ${String(params.label)}${interrupted ? ` ${interrupted}` : ''}` });
      return { stamped: world.stamps.length };
    },
  },
  controls: [
    {
      name: 'addStamp', argument: 'stamp', method: 'POST', path: 'stamps/add', body: '{ label?, color? }', bodySchema: stampSchema, does: 'stamps a label now',
      verb: {
        name: 'stamp-add',
        choices: { member: 'color', values: ['red', 'blue'], example: 'blue' },
        options: { label: { member: 'label', type: 'string', value: 'TEXT', help: 'its label' }, loud: { member: 'loud', type: 'boolean', help: 'shouted' } },
        failure: true,
        help: ['stamps a label now'],
        said: (a, failure) => `stamp ${String(a.label)} is ${String(a.color)}${a.errCode === undefined ? '' : failure(a)}`,
      },
      run: (world: StampWorld, stamp?: { readonly label?: string | undefined; readonly color?: 'red' | 'blue' | undefined }) => {
        const { label = 'none', color = world.color } = parseInput(stampSchema, stamp ?? {}, 'Invalid addStamp stamp', 'options');
        world.stamps.push({ at: world.clock.now(), label });
        return { label, color };
      },
    },
    dropStamp,
  ],
  reads: { stampCount: (world): number => world.stamps.length, stampsOf: (world, label: string): number => world.stamps.filter((s) => s.label === label).length },
  state: { stamps: (world) => [...world.stamps].reverse() },
  holds: 'stamps',
  due: (world) => {
    world.dueRuns++;
  },
  sections: (state, kit) => kit.section('Stamps', state.stamps.length, kit.html`<table id="stamps">${state.stamps.map((s) => kit.html`<tr data-stamp="${s.label}"><td>${kit.formatTime(s.at)}</td><td>${kit.button(routeOf(dropStamp, s.label), 'Drop', 'danger')}</td></tr>`)}</table>`),
  list: { holds: 'stamps', lines: (state, kit) => kit.section('Stamps', kit.rows(state.stamps).map((s) => kit.text(s.label))) },
});

const view = stampPart as unknown as MockPartView;

function scratchGateway() {
  const clock = new SimulatedClock(START);
  const worlds: MockPartWorlds = createPartWorlds([view], { clock, merchants: new MerchantRegistry([{ ...MERCHANT }]), desks: createDesks(clock, () => {}, () => ({})) });
  class Scratch {
    readonly worlds = worlds;
  }
  addPartMethods(Scratch.prototype, (gateway: Scratch, part) => gateway.worlds[part], [view]);
  const gateway = new Scratch() as Scratch & { addStamp(stamp?: object): { label: string; color: string }; dropStamp(label: string): { label: string; dropped: number }; stampCount(): number; stampsOf(label: string): number };
  return { clock, worlds, gateway, world: worlds.stamp as StampWorld };
}

describe('a part declared in a test gets its facade methods, routes, state, due hook and operation step', () => {
  it('facade: a method per control answering what the control returns, a method per read; a taken name is refused', () => {
    const { gateway, world } = scratchGateway();
    expect(gateway.addStamp({ label: 'a' })).toEqual({ label: 'a', color: 'red' });
    world.color = 'blue';
    expect(gateway.addStamp()).toEqual({ label: 'none', color: 'blue' });
    expect(gateway.stampCount()).toBe(2);
    expect(gateway.stampsOf('a')).toBe(1);
    expect(gateway.dropStamp('a')).toEqual({ label: 'a', dropped: 1 });
    expect([gateway.stampCount(), gateway.stampsOf('a')]).toEqual([1, 0]);
    expect(() => gateway.addStamp({ color: 'green' } as object)).toThrow(GatewayValidationError);
    class Taken {
      addStamp(): void {}
    }
    expect(() => addPartMethods(Taken.prototype, () => world, [view])).toThrow("the mock's stamp part declares a method addStamp, which the gateway already has");
  });

  it('control route: /_mock/{path} with its body, calling the facade method of its name; its answer is the route answer', () => {
    const [route, ...others] = partRoutes(view);
    expect(others.map((r) => r.path)).toEqual(['/_mock/stamps/{label}/drop']);
    expect([route!.method, route!.path, route!.body, route!.calls, route!.does]).toEqual(['POST', '/_mock/stamps/add', '{ label?, color? }', 'addStamp(stamp)', 'stamps a label now']);
    const { gateway, world } = scratchGateway();
    expect(route!.run(gateway as never, '', { label: 'r' } as never)).toEqual({ label: 'r', color: 'red' });
    expect(world.stamps.map((s) => s.label)).toEqual(['r']);
    expect(route!.bodySchema?.safeParse({ color: 'green' }).success).toBe(false);
    expect(() => route!.run({} as never, '', {} as never)).toThrow('the mock has no method addStamp');
  });

  it('control route of a {name} segment: no body, the segment is the argument; a body schema besides it is refused', () => {
    const [, drop] = partRoutes(view);
    expect([drop!.method, drop!.path, drop!.body, drop!.bodySchema, drop!.calls, drop!.does]).toEqual(['POST', '/_mock/stamps/{label}/drop', undefined, undefined, 'dropStamp(label)', 'drops the stamps of a label']);
    const { gateway, world } = scratchGateway();
    gateway.addStamp({ label: 'a b' });
    gateway.addStamp({ label: 'c' });
    expect(drop!.run(gateway as never, 'a b', { label: 'c' } as never)).toEqual({ label: 'a b', dropped: 1 });
    expect(world.stamps.map((s) => s.label)).toEqual(['c']);
    expect(routeOf(dropStamp, 'a/b ?')).toBe('stamps/a%2Fb%20%3F/drop');
    const bodied = { ...stampPart, controls: [{ ...dropStamp, body: '{ label }', bodySchema: stampSchema }] } as unknown as MockPartView;
    expect(() => partRoutes(bodied)).toThrow("the mock's stamp part: dropStamp takes its argument from {label}, so it reads no body: drop its bodySchema");
  });

  it('state members (newest first), due hook and operation step run on its world', () => {
    const { clock, worlds, world } = scratchGateway();
    runDue([view], worlds);
    runDue([view], worlds);
    expect(world.dueRuns).toBe(2);
    const [step] = Object.entries(partOperations([view]));
    expect(step?.[0]).toBe('executeDivision');
    clock.advance(1_000);
    const context = { parts: worlds, app: { ...MERCHANT }, params: { label: 'op' }, blank: new Set<string>() };
    expect(step?.[1]?.({ ...context, interrupted: undefined })).toEqual({ stamped: 1 });
    expect(step?.[1]?.({ ...context, interrupted: 'created' })).toEqual({ stamped: 2 });
    expect(partState([view], worlds)).toEqual({ stamps: [{ at: START + 1_000, label: `${MERCHANT.mchNo} op created` }, { at: START + 1_000, label: `${MERCHANT.mchNo} op` }] });
  });

  it('CLI verb: its route, choices, options (text, flag), failure options, usage, help and printing', () => {
    const [[name, spec]] = partVerbsOf(view) as [[string, NonNullable<ReturnType<typeof partVerbsOf>[number][1]>]];
    expect(name).toBe('stamp-add');
    expect([spec.route(''), spec.method?.({}), spec.options, spec.choices]).toEqual(['stamps/add', 'POST', ['label', 'loud', 'err-code', 'err-msg'], ['red', 'blue']]);
    expect(spec.body?.('blue', { label: 'x', loud: true, 'err-code': 'E' })).toEqual({ color: 'blue', label: 'x', loud: true, errCode: 'E' });
    expect(spec.body?.('red', {})).toEqual({ color: 'red' });
    expect(spec.argument).toBe('color: red or blue, e.g. payment-gateway-sdk mock stamp-add blue');
    expect(spec.print({ label: 'x', color: 'blue', errCode: 'E', errMsg: 'm' })).toBe(`stamp x is blue${failureOf({ errCode: 'E', errMsg: 'm' })}`);
    expect(partUsage([view])).toEqual(['payment-gateway-sdk mock stamp-add red|blue [--label TEXT] [--loud] [--err-code CODE] [--err-msg TEXT] [--url URL]']);
    expect(partHelp([view])).toEqual({
      verbs: ['  stamp-add           stamps a label now'],
      options: ['      --label TEXT     stamp-add: its label', '      --loud           stamp-add: shouted'],
    });
  });

  it('dashboard section and mock list lines: functions of its members of the state, drawn with the kit lent', () => {
    const { gateway, worlds } = scratchGateway();
    gateway.addStamp({ label: '<b>' });
    const state = partState([view], worlds) as unknown as StampState;
    const button = (route: string, label: string, kind?: string) => html`<button class="${kind}" data-post="/base/_mock/${route}">${label}</button>`;
    const page = stampPart.sections!(state, { html, section, formatAmount, formatTime, button }).text;
    expect(page).toContain(
      '<h2>Stamps <span class="muted">(1)</span></h2><table id="stamps"><tr data-stamp="&#60;b&#62;"><td>2023-11-14 22:13:20 UTC</td><td><button class="danger" data-post="/base/_mock/stamps/%3Cb%3E/drop">Drop</button></td></tr></table>',
    );
    const rows = (value: unknown) => (Array.isArray(value) ? value : []);
    expect(stampPart.list!.lines(state as never, { rows, text: String, money: () => '', section: (title, lines) => [title, ...lines] })).toEqual(['Stamps', '<b>']);
  });
});

describe('the declared parts of the mock', () => {
  it("each part's operations are its own: no kind and no other part answers them, and the operation table runs its step", () => {
    const kindOperations = MOCK_KINDS.flatMap((kind) => Object.values(kind.operations) as string[]);
    const partOps = (MOCK_PARTS as unknown as readonly MockPartView[]).flatMap((part) => Object.keys(part.operations));
    expect(new Set([...kindOperations, ...partOps]).size).toBe(kindOperations.length + partOps.length);
    for (const operation of partOps) expect(OPERATIONS).toHaveProperty(operation);
  });

  it("each part's controls are routes of the control API and methods of the gateway, which answer alike", async () => {
    const gateway = createMockGateway({ merchants: [{ ...MERCHANT }] });
    for (const part of MOCK_PARTS as unknown as readonly MockPartView[]) {
      for (const control of part.controls) {
        expect(CONTROL_ROUTES.map((r) => `${r.method} ${r.path}`)).toContain(`${control.method} /_mock/${control.path}`);
        expect(typeof (gateway as unknown as Record<string, unknown>)[control.name]).toBe('function');
      }
      for (const read of Object.keys(part.reads)) expect(typeof (gateway as unknown as Record<string, unknown>)[read]).toBe('function');
      expect(Object.keys(gateway.state())).toEqual(expect.arrayContaining(Object.keys(part.state)));
    }
    const answer = await gateway.fetch(`${ORIGIN}/_mock/division/groups`, { method: 'POST', body: JSON.stringify({ name: 'Partners' }) });
    expect(await answer.json()).toEqual({ ...gateway.divisionGroups()[0] });
    expect(gateway.createDivisionGroup({ name: 'Stores', auto: true })).toEqual(gateway.divisionGroups()[1]);
  });
});
