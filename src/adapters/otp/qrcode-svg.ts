/**
 * QR codes as SVG by node-qrcode (`qrcode`, MIT), the most used QR encoder on npm; writing a Reed-Solomon encoder
 * and mask selection here would be a second, untested copy of it. Error correction M (15 %): an otpauth URI of a
 * 160-bit secret fits a small symbol that a phone camera reads off a screen.
 */
import QRCode from 'qrcode';
import type { QrCodes } from '../../application/ports/qr-codes';

export class QrcodeSvg implements QrCodes {
  async svg(text: string): Promise<string> {
    return QRCode.toString(text, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  }
}
