import svgCaptcha from 'svg-captcha';
import type { CaptchaGenerator, CaptchaType } from '../../application/ports/captcha-generator';

/** svg-captcha 1.4: four-character text, or a small sum/difference (answer = its result). */
export class SvgCaptchaGenerator implements CaptchaGenerator {
  create(type: CaptchaType): { answer: string; svg: string } {
    const c =
      type === 'math'
        ? svgCaptcha.createMathExpr({ mathMin: 1, mathMax: 9, mathOperator: '+-', noise: 2, color: true })
        : svgCaptcha.create({ size: 4, noise: 2, ignoreChars: '0oO1ilI', color: true });
    return { answer: c.text, svg: c.data };
  }
}
