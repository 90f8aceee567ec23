/**
 * Captchas drawn by svg-captcha 1.4, with the answers chosen here from `crypto.randomInt` (uniform),
 * so that no answer is likely enough to be worth guessing blind:
 *
 * - math: `a + b` or `a - b`, each operand uniform in [min, max], the operator a fair coin; the answer
 *   is the signed result. The most likely answer's probability is `mathAnswerOdds(min, max)`; the
 *   defaults (10..99) give 0.56 %, and the configuration refuses operands whose odds exceed 1 %.
 * - text: TEXT_LENGTH characters from an alphabet without look-alikes (no 0/O, 1/I/L, 2/Z, 5/S, 8/B, 6/G);
 *   answers are compared ignoring case, so the alphabet has one case only.
 */
import { randomInt } from 'node:crypto';
import svgCaptcha from 'svg-captcha';
import type { CaptchaGenerator, CaptchaType } from '../../application/ports/captcha-generator';

export const TEXT_ALPHABET = 'ACDEFHJKMNPQRTUVWXY34679';
export const TEXT_LENGTH = 5;
/** The highest probability of any single answer a configuration may give. */
export const MAX_ANSWER_ODDS = 0.01;

/** svg-captcha's renderer (the module itself is the function that draws a given text). */
const render = svgCaptcha as unknown as (text: string, options: Record<string, unknown>) => string;
const DRAWING = { noise: 2, color: true, width: 160, height: 50 } as const;

/**
 * The probability of the most likely math answer for operands uniform in [min, max] and a fair
 * choice of + and -: the sum a+b and the difference a-b may coincide, so both are counted.
 */
export function mathAnswerOdds(min: number, max: number): number {
  const n = max - min + 1;
  if (n < 1) return 1;
  const pairs = n * n;
  const sumWays = (k: number): number => Math.max(0, n - Math.abs(k - (min + max)));
  const differenceWays = (k: number): number => Math.max(0, n - Math.abs(k));
  let best = 0;
  for (let k = -(n - 1); k <= 2 * max; k++) best = Math.max(best, sumWays(k) + differenceWays(k));
  return best / (2 * pairs);
}

export class SvgCaptchaGenerator implements CaptchaGenerator {
  constructor(private readonly math: { readonly min: number; readonly max: number } = { min: 10, max: 99 }) {
    const odds = mathAnswerOdds(math.min, math.max);
    if (odds > MAX_ANSWER_ODDS)
      throw new Error(`math captcha operands ${math.min}..${math.max}: the most likely answer has odds ${odds}, above ${MAX_ANSWER_ODDS}`);
  }

  create(type: CaptchaType): { answer: string; svg: string } {
    if (type === 'math') {
      const a = randomInt(this.math.min, this.math.max + 1);
      const b = randomInt(this.math.min, this.math.max + 1);
      const plus = randomInt(2) === 0;
      return { answer: String(plus ? a + b : a - b), svg: render(`${a}${plus ? '+' : '-'}${b}`, DRAWING) };
    }
    let text = '';
    for (let i = 0; i < TEXT_LENGTH; i++) text += TEXT_ALPHABET[randomInt(TEXT_ALPHABET.length)];
    return { answer: text, svg: render(text, DRAWING) };
  }
}
