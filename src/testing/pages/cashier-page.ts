/**
 * The cashier page, `{base}/cashier/{payOrderId}`, what a payer sees: Pay, Fail (then back to `returnUrl`
 * with the signed fields) and Leave pending.
 *
 * @module
 */
import { PayOrderState } from '../../kinds/payments/enums.js';
import type { GatewayControls } from '../domain/controls.js';
import type { MockPayOrder } from '../../kinds/payments/mock.js';
import { cashierUrl } from '../../kinds/payments/mock-pay-data.js';
import { formatAmount, formatTime, html, layout, type Html } from './html.js';
import { QR_IMAGE, qrImageResponse } from './qr-image.js';

const ACTIONS = ['pay', 'fail', 'leave'] as const;

/**
 * Answers `GET /cashier/{id}`, `GET /cashier/{id}/qr.svg` (the `codeImgUrl` image) and `POST /cashier/{id}/{pay|fail|leave}`
 * (`segments`: the path's, decoded), or `undefined` for other paths.
 */
export function handleCashier(gateway: GatewayControls, request: Request, segments: readonly string[], base: string): Response | undefined {
  const [root, page, id, action, ...rest] = segments;
  if (root !== '' || page !== 'cashier' || !id || rest.length > 0 || (action !== undefined && action !== QR_IMAGE && !isAction(action))) return undefined;
  let order: MockPayOrder | undefined;
  try {
    // The orders are the payment kind's records, read through its desk.
    order = gateway.record('payment', id) as MockPayOrder | undefined;
  } catch {
    order = undefined;
  }
  if (!order) return layout('Order not found', base, html`<div class="card"><h1>Order not found</h1><p class="muted">The mock has no order ${id}.</p></div>`, '', 404);
  if (action === undefined && request.method === 'GET') return renderCashier(order, base, gateway.now());
  if (action === QR_IMAGE) return request.method === 'GET' ? qrImageResponse(cashierUrl(base, order.payOrderId)) : undefined;
  if (action === undefined || request.method !== 'POST') return undefined;
  // Pay and Fail are the order's decisions of the same names.
  if (isOpen(order) && action !== 'leave') gateway.settle('payment', order.payOrderId, { to: action });
  const back = (gateway.recordControl('payment', 'payerReturnUrl', order.payOrderId) as string | undefined) ?? `${base}/cashier/${encodeURIComponent(order.payOrderId)}`;
  return new Response(null, { status: 303, headers: { location: back } });
}

function isAction(text: string): text is (typeof ACTIONS)[number] {
  return (ACTIONS as readonly string[]).includes(text);
}

function isOpen(order: MockPayOrder): boolean {
  return order.state === PayOrderState.Generated || order.state === PayOrderState.Paying;
}

const OUTCOMES: Readonly<Record<number, { badge: string; label: string; text: (o: MockPayOrder, now: number) => string }>> = {
  [PayOrderState.Generated]: { badge: 'wait', label: 'Awaiting payment', text: () => 'Choose what the payer does.' },
  [PayOrderState.Paying]: { badge: 'wait', label: 'Awaiting payment', text: () => 'Choose what the payer does.' },
  [PayOrderState.Succeeded]: { badge: 'ok', label: 'Paid', text: (o) => `Paid at ${formatTime(o.successTime)}.` },
  [PayOrderState.Failed]: { badge: 'bad', label: 'Payment failed', text: (o) => `The channel declined it: ${o.errMsg ?? ''} (${o.errCode ?? ''}).` },
  [PayOrderState.Revoked]: { badge: 'bad', label: 'Revoked', text: () => 'This order was revoked.' },
  [PayOrderState.Refunded]: { badge: '', label: 'Refunded', text: () => 'This order was refunded.' },
  [PayOrderState.Closed]: {
    badge: '',
    label: 'Closed',
    text: (o, now) => (o.expiresAt <= now ? `This order expired at ${formatTime(o.expiresAt)}: it can no longer be paid.` : 'The merchant closed this order: it can no longer be paid.'),
  },
};

function renderCashier(order: MockPayOrder, base: string, now: number): Response {
  const outcome = OUTCOMES[order.state] ?? { badge: '', label: `State ${order.state}`, text: () => '' };
  const action = (name: string) => `${base}/cashier/${encodeURIComponent(order.payOrderId)}/${name}`;
  const buttons: Html = isOpen(order)
    ? html`<div class="actions">
        <form method="POST" action="${action('pay')}"><button class="primary" id="pay">Pay ${formatAmount(order.amount, order.currency)}</button></form>
        <form method="POST" action="${action('fail')}"><button class="danger" id="fail">Fail</button></form>
        <form method="POST" action="${action('leave')}"><button id="leave">Leave pending</button></form>
      </div>`
    : html``;
  return layout(
    `Pay ${order.subject}`,
    base,
    html`<div class="card" style="max-width:560px;margin:24px auto">
      <div class="muted">Merchant ${order.mchNo} · app ${order.appId}</div>
      <h1>${order.subject}</h1>
      <div class="muted">${order.body}</div>
      <div class="amount">${formatAmount(order.amount, order.currency)}</div>
      <p><span class="badge ${outcome.badge}" id="state" data-state="${order.state}">${outcome.label}</span> ${outcome.text(order, now)}</p>
      ${buttons}
      <dl>
        <dt>Order</dt><dd><code>${order.payOrderId}</code></dd>
        <dt>Merchant order</dt><dd><code>${order.mchOrderNo}</code></dd>
        <dt>Way</dt><dd>${order.wayCode}</dd>
        <dt>Valid until</dt><dd>${formatTime(order.expiresAt)}</dd>
        <dt>Returns to</dt><dd>${order.returnUrl ?? 'this page (no returnUrl)'}</dd>
      </dl>
    </div>`,
  );
}
