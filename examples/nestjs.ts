/**
 * NestJS (Express platform): process the gateway's payment notification once, from the raw body, checked
 * against the shop's own order record. Needs `experimentalDecorators` in tsconfig.json; no dependency
 * injection metadata, since the controller takes what it needs from the module factory.
 *
 * ```ts
 * const store = postgresStore({ pool });
 * await store.migrate();
 * const app = await NestFactory.create(createNotifyModule({ merchant, orders, store, onPaid: markOrderPaid }), { rawBody: true });
 * await app.listen(3000);
 * ```
 */
import 'reflect-metadata';
import { Controller, Module, Post, Req, Res, type RawBodyRequest, type Type } from '@nestjs/common';
import type { Request, Response } from 'express';
import { logOutcome, shopProcessor, type ShopOptions } from './shop.js';

/** A module with `POST /pay/notify`. Create the app with `{ rawBody: true }`: the SDK verifies the bytes received. */
export function createNotifyModule(shop: ShopOptions): Type {
  const processor = shopProcessor(shop);

  @Controller('pay')
  class NotifyController {
    // #region readme
    // NestJS: NestFactory.create(module, { rawBody: true }); rawBody, not body: Nest's default form parser is
    // the extended one, which turns a[b]=1 into objects.
    @Post('notify')
    async notify(@Req() request: RawBodyRequest<Request>, @Res() response: Response): Promise<void> {
      const reply = await processor.handle(request.rawBody ?? '');
      logOutcome(reply);
      response.status(reply.status).set(reply.headers).send(reply.body);
    }
    // #endregion readme
  }

  @Module({ controllers: [NotifyController] })
  class NotifyModule {}
  return NotifyModule;
}
