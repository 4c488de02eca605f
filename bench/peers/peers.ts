/**
 * The peer case: one query-sized POST made by our client, by raw baselines and by the peers' own HTTP
 * stacks, against the one loopback server. Each side's answer is checked, so no side is timed doing
 * less than its call. The peers send the same JSON body (stripe-node form-encodes it, as it does for
 * every v1 request) and parse the same signed response; they neither sign nor verify, which is the
 * SDK's own work.
 */
import { Agent } from 'node:http';
import ky from 'ky';
import OpenAI from 'openai';
import Stripe from 'stripe';
import type { GatewayClient } from '../../src/index.js';
import { baselineQuery, baselineQueryNodeHttp, baselineSign } from '../baseline.js';
import { PAY_ORDER, PEER_PATH, REQUEST_PARAMS, SECRET } from '../fixture.js';
import { concurrentBatch, type Batch } from '../harness.js';

export const PEER_SIDES = ['ours', 'oursFetch', 'rawFetch', 'rawNodeHttp', 'stripe', 'openai', 'ky'] as const;
export type PeerSide = (typeof PEER_SIDES)[number];

export const PEER_NAMES: Record<PeerSide, string> = {
  ours: 'payment-gateway-sdk `client.query` (node:http, the default on Node)',
  oursFetch: 'payment-gateway-sdk `client.query` given `fetch`',
  rawFetch: 'raw fetch (sign, fetch, parse, verify)',
  rawNodeHttp: 'raw node:http (the same, over node:http)',
  stripe: 'stripe-node POST (`rawRequest`)',
  openai: 'openai-node POST (`client.post`)',
  ky: '`ky.post().json()`',
};

interface Answer {
  data?: { payOrderId?: unknown };
}

function check(answer: unknown): void {
  if ((answer as Answer | undefined)?.data?.payOrderId !== PAY_ORDER.payOrderId) throw new Error('a peer got an unexpected answer');
}

/** Every side, `inFlight` calls at a time, on the server at `origin`; every client with its defaults. */
export function peerBatches(client: GatewayClient, fetchClient: GatewayClient, origin: string, inFlight: number): Record<PeerSide, Batch> {
  const { mchOrderNo } = PAY_ORDER;
  const body = { ...REQUEST_PARAMS, sign: baselineSign(REQUEST_PARAMS, SECRET) };
  const url = new URL(origin);
  const agent = new Agent({ keepAlive: true });
  const stripe = new Stripe('sk_test_bench', { host: url.hostname, port: Number(url.port), protocol: 'http' });
  const openai = new OpenAI({ apiKey: 'sk-bench', baseURL: `${origin}/v1` });
  const batch = (call: () => Promise<unknown>) => concurrentBatch(call, inFlight);
  return {
    ours: batch(async () => {
      if ((await client.query({ mchOrderNo })).payOrderId !== PAY_ORDER.payOrderId) throw new Error('the SDK got an unexpected answer');
    }),
    oursFetch: batch(async () => {
      if ((await fetchClient.query({ mchOrderNo })).payOrderId !== PAY_ORDER.payOrderId) throw new Error('the SDK got an unexpected answer');
    }),
    rawFetch: batch(() => baselineQuery(fetch, origin, REQUEST_PARAMS, SECRET)),
    rawNodeHttp: batch(() => baselineQueryNodeHttp(agent, url, REQUEST_PARAMS, SECRET)),
    stripe: batch(async () => check(await stripe.rawRequest('POST', PEER_PATH, body))),
    openai: batch(async () => check(await openai.post(PEER_PATH.slice('/v1'.length), { body }))),
    ky: batch(async () => check(await ky.post(`${origin}${PEER_PATH}`, { json: body }).json())),
  };
}
