// Required fields are checked against the spec's lists (issue 36): every operation's parameters and answer, and
// every notification kind, mark required exactly what the spec marks required and name only the fields it lists,
// unless test/fixtures/spec-fields.json records the difference with its reason. The fixture is a copy of the
// spec's lists: the repository never reads ../shared.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { notificationKinds } from '../../../src/notify/kinds.js';
import { definitionOf, OPERATION_NAMES } from '../../../src/operations/table.js';
import { COMMON_REQUEST_FIELDS } from '../../../src/operations/wire.js';
import { objectFields } from '../../../src/protocol/schemas/introspect.js';

const FIXTURE = 'test/fixtures/spec-fields.json';

const specList = z.strictObject({
  /** The spec's file and section the list is copied from. */
  section: z.string().check(z.minLength(1)),
  /** Each field the spec lists, with its mark: `one of` is a group the spec asks some of (each field optional, a refinement asks). */
  fields: z.record(z.string(), z.enum(['required', 'optional', 'one of', 'not shown'])),
  /** Where the schema differs from the spec or decides what it leaves unsaid: what the schema does, and why. */
  sdk: z.record(z.string(), z.strictObject({ is: z.enum(['required', 'optional', 'absent']), why: z.string().check(z.minLength(10)) })),
});
type SpecList = z.output<typeof specList>;
type Form = SpecList['sdk'][string]['is'];

const fixture = z
  .strictObject({
    $comment: z.string(),
    common: z.strictObject({ section: z.string(), fields: z.array(z.string()), why: z.string() }),
    operations: z.record(z.string(), z.strictObject({ params: specList, result: specList })),
    notifications: z.record(z.string(), specList),
  })
  .parse(JSON.parse(readFileSync(fileURLToPath(new URL('../../fixtures/spec-fields.json', import.meta.url)), 'utf8')));

// What a spec mark asks of the schema; `not shown` asks nothing, so the schema's choice must be written down.
const IMPLIED = { required: 'required', optional: 'optional', 'one of': 'optional', 'not shown': undefined } as const;

/** Every way `schema` breaks `list`, one message each, naming `where` (the operation and the list), the field and the section. */
function problems(where: string, list: SpecList, schema: z.ZodMiniObject): string[] {
  const { names, required } = objectFields(schema);
  const found = (name: string): Form => (!names.has(name) ? 'absent' : required.has(name) ? 'required' : 'optional');
  const said = `${list.section} in ${FIXTURE}`;
  const out: string[] = [];
  for (const name of new Set([...Object.keys(list.fields), ...Object.keys(list.sdk), ...names])) {
    const mark = list.fields[name];
    const choice = list.sdk[name];
    const implied = mark === undefined ? 'absent' : IMPLIED[mark];
    if (choice !== undefined && choice.is === implied) {
      out.push(`${where}: the sdk entry of ${name} repeats what ${said} says (${implied}): remove it`);
      continue;
    }
    const expected = choice?.is ?? implied;
    const is = found(name);
    if (expected === undefined) {
      out.push(`${where}: ${said} does not say whether ${name} is required: record the schema's choice (${is}) under sdk with its reason`);
    } else if (mark === undefined && choice === undefined) {
      out.push(`${where}: ${name} is not a field of ${said}: remove it from the schema, or record it under sdk with the reason`);
    } else if (is !== expected) {
      const by = choice === undefined ? `${said} marks it ${mark}` : `${said} records the SDK's choice "${expected}" (${choice.why})`;
      out.push(`${where}: ${name} is ${is === 'absent' ? 'not in the schema' : `${is} in the schema`}, but ${by}`);
    }
  }
  return out;
}

describe(`the schemas against the spec's field lists (${FIXTURE})`, () => {
  for (const operation of OPERATION_NAMES) {
    it(`${operation}: its parameters and its answer require the spec's required fields and name only the spec's`, () => {
      const lists = fixture.operations[operation];
      expect(lists, `${operation} has no lists in ${FIXTURE}: copy its request and answer fields from the spec`).toBeDefined();
      if (!lists) return;
      const { params, result } = definitionOf(operation);
      expect([...problems(`${operation} params`, lists.params, params), ...problems(`${operation} result`, lists.result, result)]).toEqual([]);
    });
  }

  for (const kind of Object.values(notificationKinds)) {
    it(`the ${kind.label}: requires the spec's required fields and names only the spec's`, () => {
      const list = fixture.notifications[kind.name];
      expect(list, `the ${kind.label} has no list in ${FIXTURE}: copy its fields from the spec`).toBeDefined();
      if (list) expect(problems(`the ${kind.label}`, list, kind.schema)).toEqual([]);
    });
  }

  it('the fixture holds no operation or kind that is not declared', () => {
    expect(Object.keys(fixture.operations).filter((name) => !(OPERATION_NAMES as string[]).includes(name))).toEqual([]);
    expect(Object.keys(fixture.notifications).filter((name) => !(name in notificationKinds))).toEqual([]);
  });

  it("the common request fields are the spec's, and no parameter schema names one (the client adds them)", () => {
    expect([...COMMON_REQUEST_FIELDS].sort()).toEqual([...fixture.common.fields].sort());
    const named = OPERATION_NAMES.flatMap((operation) =>
      COMMON_REQUEST_FIELDS.filter((field) => objectFields(definitionOf(operation).params).names.has(field)).map((field) => `${operation}: ${field}`),
    );
    expect(named).toEqual([]);
  });

  it('a required field made optional, an optional made required, an unknown field or a dropped one each fail, naming the field and the section', () => {
    const lists = fixture.operations.refundOrder;
    if (!lists) throw new Error(`refundOrder has no lists in ${FIXTURE}`);
    const shape = definitionOf('refundOrder').params.def.shape;
    const { refundReason: _dropped, ...withoutReason } = shape;
    const scratch = (changes: Record<string, z.core.$ZodType>) => problems('refundOrder params', lists.params, z.strictObject({ ...shape, ...changes }));
    expect(scratch({ refundReason: z.optional(z.string()) })).toEqual([
      `refundOrder params: refundReason is optional in the schema, but refunds.md 1 (Create a refund) in ${FIXTURE} marks it required`,
    ]);
    expect(scratch({ clientIp: z.string() })).toEqual([`refundOrder params: clientIp is required in the schema, but refunds.md 1 (Create a refund) in ${FIXTURE} marks it optional`]);
    expect(scratch({ refundNote: z.optional(z.string()) })).toEqual([
      `refundOrder params: refundNote is not a field of refunds.md 1 (Create a refund) in ${FIXTURE}: remove it from the schema, or record it under sdk with the reason`,
    ]);
    expect(problems('refundOrder params', lists.params, z.strictObject(withoutReason))).toEqual([
      `refundOrder params: refundReason is not in the schema, but refunds.md 1 (Create a refund) in ${FIXTURE} marks it required`,
    ]);
  });

  it('a choice the spec leaves unsaid, or an sdk entry that differs from nothing, fails', () => {
    const list: SpecList = { section: 'gateway-api.md 4.6', fields: { requestId: 'not shown', remark: 'optional' }, sdk: { remark: { is: 'optional', why: 'repeats the spec' } } };
    expect(problems('settleRequestGet params', list, z.strictObject({ requestId: z.string(), remark: z.optional(z.string()) }))).toEqual([
      `settleRequestGet params: gateway-api.md 4.6 in ${FIXTURE} does not say whether requestId is required: record the schema's choice (required) under sdk with its reason`,
      `settleRequestGet params: the sdk entry of remark repeats what gateway-api.md 4.6 in ${FIXTURE} says (optional): remove it`,
    ]);
  });
});
