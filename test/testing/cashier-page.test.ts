// The cashier page a payer sees at payData, through gateway.fetch.
import { encode } from 'uqr';
import { describe, expect, it } from 'vitest';
import { verifyNotification } from '../../src/index.js';
import { createMockGateway, type MockGateway } from '../../src/testing/index.js';
import { call, MERCHANT, ORIGIN, orderFields, START } from '../support/raw-gateway.js';

describe('cashier page', () => {
  const page = (gateway: MockGateway, path: string, method = 'GET') => gateway.fetch(`${ORIGIN}${path}`, { method });

  it('shows the order with its amount and currency, escaped, and buttons while it can be paid', async () => {
    const gateway = createMockGateway({ merchants: [MERCHANT], startTime: START });
    const created = (await call(gateway, 'unifiedOrder', orderFields({ subject: '<script>alert(1)</script>' }))).json.data as { payOrderId: string; payData: string };
    expect(created.payData).toBe(`${ORIGIN}/cashier/${created.payOrderId}`);
    const html = await (await page(gateway, `/cashier/${created.payOrderId}`)).text();
    expect(html).toContain('19.99 USD');
    expect(html).toContain('&#60;script&#62;alert(1)&#60;/script&#62;');
    expect(html).not.toContain('<script>alert(1)');
    expect(html).toContain('id="pay"');
  });

  it('codeImgUrl pay data is an SVG image of the QR code of the cashier URL', async () => {
    const gateway = createMockGateway({ merchants: [MERCHANT], startTime: START });
    const created = (await call(gateway, 'unifiedOrder', orderFields({ channelExtra: '{"payDataType":"codeImgUrl"}' }))).json.data as { payOrderId: string; payDataType: string; payData: string };
    const cashier = `${ORIGIN}/cashier/${created.payOrderId}`;
    expect(created).toMatchObject({ payDataType: 'codeImgUrl', payData: `${cashier}/qr.svg` });
    const image = await gateway.fetch(created.payData);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/svg+xml');
    const svg = await image.text();
    // A standalone SVG document: its root element, the namespace, a square viewBox, nothing but rectangles.
    const root = /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" viewBox="0 0 (\d+) (\d+)">([\s\S]*)<\/svg>$/.exec(svg);
    expect(root, svg.slice(0, 120)).not.toBeNull();
    const [, width, height, body] = root!;
    expect(width).toBe(height);
    expect(body).not.toMatch(/<script|on\w+=/i);
    // Its dark modules, read back from the drawing, are exactly the QR code of the cashier URL.
    const { data } = encode(cashier, { ecc: 'M', border: 4 });
    const module = Number(width) / data.length;
    const drawn = new Set([...svg.matchAll(/M(\d+),(\d+)h/g)].map(([, x, y]) => `${Number(x) / module},${Number(y) / module}`));
    const dark = new Set(data.flatMap((row, y) => row.flatMap((on, x) => (on ? [`${x},${y}`] : []))));
    expect(dark.size).toBeGreaterThan(100);
    expect(drawn).toEqual(dark);
    expect(encode(`${cashier}x`, { ecc: 'M', border: 4 }).data).not.toEqual(data); // the comparison tells URLs apart
    expect((await gateway.fetch(`${ORIGIN}/cashier/P404/qr.svg`)).status).toBe(404);
  });

  it('Pay redirects to returnUrl with the signed fields; without returnUrl it shows the result', async () => {
    const gateway = createMockGateway({ merchants: [MERCHANT], startTime: START });
    await call(gateway, 'unifiedOrder', orderFields({ returnUrl: 'https://shop.example/return?cart=7' }));
    const { payOrderId } = gateway.order('order-1')!;
    const answer = await page(gateway, `/cashier/${payOrderId}/pay`, 'POST');
    expect(answer.status).toBe(303);
    const back = new URL(answer.headers.get('location') ?? '');
    expect(back.origin + back.pathname).toBe('https://shop.example/return');
    await expect(verifyNotification(back.searchParams, { ...MERCHANT, ignoreKeys: ['cart'] })).resolves.toMatchObject({ payOrderId, state: 2 });
    await call(gateway, 'unifiedOrder', orderFields({ mchOrderNo: 'order-2' }));
    const second = gateway.order('order-2')!.payOrderId;
    expect((await page(gateway, `/cashier/${second}/fail`, 'POST')).headers.get('location')).toBe(`${ORIGIN}/cashier/${second}`);
    expect(await (await page(gateway, `/cashier/${second}`)).text()).toContain('Payment failed');
  });

  it('decodes the order id once (%50 is P); a malformed %-escape is a 400, through fetch and over HTTP', async () => {
    const gateway = createMockGateway({ merchants: [MERCHANT], startTime: START });
    await call(gateway, 'unifiedOrder', orderFields());
    const { payOrderId } = gateway.order('order-1')!;
    const escaped = `%${payOrderId.charCodeAt(0).toString(16).toUpperCase()}${payOrderId.slice(1)}`;
    expect(await (await page(gateway, `/cashier/${escaped}`)).text()).toContain(`<code>${payOrderId}</code>`);
    for (const path of ['/cashier/%E0%A4%A', '/cashier/%E0%A4%A/pay', `/cashier/${payOrderId}/%ZZ`]) {
      const answer = await page(gateway, path, path.endsWith('pay') ? 'POST' : 'GET');
      expect(answer.status, path).toBe(400);
      expect(await answer.json()).toMatchObject({ status: 400, error: 'Bad Request', path });
    }
    const server = await gateway.listen();
    try {
      const answer = await fetch(`${server.url}/cashier/%E0%A4%A`);
      expect(answer.status).toBe(400);
      expect(await answer.json()).toMatchObject({ error: 'Bad Request', path: '/cashier/%E0%A4%A' });
    } finally {
      await server.close();
    }
    expect(gateway.order('order-1')?.state).toBe(0);
  });

  it('says an expired order can no longer be paid, and has no buttons', async () => {
    const gateway = createMockGateway({ merchants: [MERCHANT], startTime: START });
    await call(gateway, 'unifiedOrder', orderFields({ expiredTime: 60 }));
    gateway.advanceTime(61_000);
    const html = await (await page(gateway, `/cashier/${gateway.order('order-1')!.payOrderId}`)).text();
    expect(html).toContain('expired at');
    expect(html).not.toContain('id="pay"');
    const missing = await page(gateway, '/cashier/P404');
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain('The mock has no order P404.');
  });
});
