// `npm run demo` stays working: the walkthrough runs in-process and tells the whole story.
import { expect, it } from 'vitest';
import { runDemo } from '../../scripts/demo.js';

it('walks through orders, a verified notification, a channel failure, a settlement, refunds, a supplier payout and a division', async () => {
  const lines: string[] = [];
  await runDemo((line) => lines.push(line));
  const text = lines.join('\n');
  expect(text).toMatch(/Mock gateway on http:\/\/127\.0\.0\.1:\d+; merchant notify endpoint on http:\/\/127\.0\.0\.1:\d+/);
  expect(text).toMatch(/payDataType codeImgUrl: show the payer http:\/\/127\.0\.0\.1:\d+\/cashier\/P\d+/);
  expect(text).toMatch(/notify endpoint: verified demo-order-1001 \(P\d+\) paid 1999 USD/);
  expect(text).toContain('merchant answered "SUCCESS" -> delivered');
  expect(text).toContain('a forged copy with amount=1 is answered "FAIL"');
  expect(text).toContain('state 2 (Succeeded), amount 1999 USD');
  expect(text).toContain('closed: state 6 (Closed)');
  expect(text).toContain('closing the paid order is refused: code 9999, msg 当前订单不可关闭');
  expect(text).toContain('state 3 (Failed), ACQ.PAYMENT_AUTH_CODE_INVALID');
  expect(text).toMatch(/read back: 150000 minor units of USD as TRON_USDT to TXYZ\w+, status 2/);
  expect(text).toMatch(/refund R\d+: 500 of 1999, state 2 \(Succeeded\)/);
  expect(text).toMatch(/notify endpoint: verified refund demo-refund-1001 of P\d+: 500 USD back to the payer/);
  expect(text).toContain('the order after a partial refund: state 2 (still paid)');
  expect(text).toMatch(/the same refund again resolves to R\d+ \(replayed: true\), nothing refunded twice/);
  expect(text).toContain('the order after the rest: state 5 (Refunded)');
  expect(text).toMatch(/transfer T\d+: 1500 CNY to \*\*\*6789, state 2 \(Succeeded\)/);
  expect(text).toMatch(/notify endpoint: verified transfer demo-payout-1001 \(T\d+\): 1500 CNY paid out to \*\*\*6789\n.*merchant answered "SUCCESS" -> delivered/);
  expect(text).toContain('read back: 1500 CNY by WX_CASH to ***6789, state 2 (Succeeded)');
  expect(text).toContain('receiver 800001 bound in group 100001: ***0042, default share 0.2');
  expect(text).toContain('executeDivision: state 1 (Succeeded)');
  expect(text).toContain("the gateway's record: 2485 USD of the 9940 left after its fee to ***0042 (share 0.25)");
  // The payee's and the receiver's accounts and names are personal data: never printed in full.
  expect(text).not.toContain('o8xYz0123456789');
  expect(text).not.toContain('o8xSeller0042');
  expect(text).not.toContain('Li Lei');
  expect(text).toMatch(/1 order fulfilled, 1 supplier paid/);
});
