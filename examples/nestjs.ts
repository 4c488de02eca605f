/**
 * NestJS (Express platform): verify the gateway's payment notification from the raw body, fulfil the
 * order once, answer SUCCESS. Needs `experimentalDecorators` in tsconfig.json; no dependency injection
 * metadata, since the controller takes what it needs from the module factory.
 *
 * ```ts
 * const client = new GatewayClient({ baseUrl, mchNo, appId, secret });
 * const app = await NestFactory.create(createNotifyModule({ client, fulfil: markOrderPaid }), { rawBody: true });
 * await app.listen(3000);
 * ```
 */
import 'reflect-metadata';
import { BadRequestException, Controller, Header, HttpCode, Module, Post, Req, type RawBodyRequest, type Type } from '@nestjs/common';
import type { Request } from 'express';
import { type GatewayClient, isGatewayError, NOTIFICATION_ACK, type PayOrderNotification, PayOrderState } from 'payment-gateway-sdk';
import { oncePerEvent } from './once-per-event.js';

export interface NotifyModuleOptions {
  client: GatewayClient;
  /** Your business step, e.g. mark the order paid and ship it. */
  fulfil: (notification: PayOrderNotification) => Promise<void>;
}

/** A module with `POST /pay/notify`. Create the app with `{ rawBody: true }`: the SDK verifies the bytes received. */
export function createNotifyModule({ client, fulfil }: NotifyModuleOptions): Type {
  const fulfilOnce = oncePerEvent(fulfil);

  @Controller('pay')
  class NotifyController {
    @Post('notify')
    @HttpCode(200)
    @Header('content-type', 'text/plain')
    async notify(@Req() request: RawBodyRequest<Request>): Promise<string> {
      let notification: PayOrderNotification;
      try {
        // rawBody, not body: Nest's default form parser is the extended one, which turns a[b]=1 into objects.
        notification = await client.verifyNotification(request.rawBody ?? '');
      } catch (error) {
        if (!isGatewayError(error)) throw error;
        console.warn('payment notification rejected:', error.message); // never contains the secret
        throw new BadRequestException('FAIL');
      }
      if (notification.state === PayOrderState.Succeeded) await fulfilOnce(notification); // a failure answers 500: the gateway retries
      return NOTIFICATION_ACK;
    }
  }

  @Module({ controllers: [NotifyController] })
  class NotifyModule {}
  return NotifyModule;
}
