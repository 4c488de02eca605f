/**
 * The image a `codeImgUrl` pay data points at, `{base}/cashier/{payOrderId}/qr.svg`: an SVG QR code of the
 * order's cashier URL, as the gateway serves a QR image for the payer to scan. Drawn by uqr (a kept library).
 *
 * @module
 */
import { renderSVG } from 'uqr';

/** The file name of the QR image below an order's cashier URL. */
export const QR_IMAGE = 'qr.svg';

/** The QR code of `text` as an SVG image (error correction M, as payment QR codes use; a 4-module quiet zone). */
export function qrImageResponse(text: string): Response {
  return new Response(renderSVG(text, { ecc: 'M', border: 4, pixelSize: 8 }), {
    headers: { 'content-type': 'image/svg+xml', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' },
  });
}
