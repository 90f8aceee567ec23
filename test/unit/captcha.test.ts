/** Captchas worth solving: no answer comes up more often than 1 in 100. */
import assert from 'node:assert/strict';
import {
  MAX_ANSWER_ODDS,
  SvgCaptchaGenerator,
  TEXT_ALPHABET,
  TEXT_LENGTH,
  mathAnswerOdds,
} from '../../src/adapters/captcha/svg-captcha-generator';
import { ConfigError, loadConfig } from '../../src/main/config';
import { testConfig } from '../support/apps';

const SAMPLES = 5000;

function mostFrequentShare(answers: readonly string[]): { answer: string; share: number } {
  const counts = new Map<string, number>();
  for (const a of answers) counts.set(a, (counts.get(a) ?? 0) + 1);
  const [answer, n] = [...counts.entries()].sort((x, y) => y[1] - x[1])[0] as [string, number];
  return { answer, share: n / answers.length };
}

describe('captcha answers', function () {
  this.timeout(60_000);
  const config = testConfig();
  const generator = new SvgCaptchaGenerator({ min: config.captcha.mathMin, max: config.captcha.mathMax });

  it(`math (default operands): the most frequent of ${SAMPLES} answers is under 1 %; answers are integers, images SVG`, () => {
    const answers = Array.from({ length: SAMPLES }, () => generator.create('math'));
    const top = mostFrequentShare(answers.map((c) => c.answer));
    assert.ok(top.share < 0.01, `answer ${top.answer} came up ${(top.share * 100).toFixed(2)} %`);
    for (const c of answers.slice(0, 20)) {
      assert.match(c.svg, /^<svg [^>]*>.*<\/svg>$/s);
      assert.match(c.answer, /^-?\d+$/);
    }
  });

  it(`text: ${TEXT_LENGTH} characters from an alphabet without look-alikes; the most frequent of ${SAMPLES} answers is under 1 %`, () => {
    const answers = Array.from({ length: SAMPLES }, () => generator.create('text').answer);
    for (const a of answers) {
      assert.equal(a.length, TEXT_LENGTH);
      for (const ch of a) assert.ok(TEXT_ALPHABET.includes(ch), a);
    }
    for (const lookAlike of '0O1IL') assert.ok(!TEXT_ALPHABET.includes(lookAlike), lookAlike);
    assert.ok(TEXT_LENGTH >= 5);
    assert.ok(mostFrequentShare(answers).share < 0.01);
  });

  it('mathAnswerOdds is the exact odds of the most likely answer (checked against every pair)', () => {
    for (const [min, max] of [
      [1, 9],
      [0, 5],
      [10, 99],
      [3, 40],
      [7, 7],
    ] as const) {
      const counts = new Map<number, number>();
      for (let a = min; a <= max; a++) {
        for (let b = min; b <= max; b++) for (const r of [a + b, a - b]) counts.set(r, (counts.get(r) ?? 0) + 1);
      }
      const n = max - min + 1;
      assert.equal(mathAnswerOdds(min, max), Math.max(...counts.values()) / (2 * n * n), `${min}..${max}`);
    }
    assert.ok(mathAnswerOdds(10, 99) <= MAX_ANSWER_ODDS);
  });

  it('operands whose most likely answer exceeds 1 % refuse to start, naming both keys; so does a reversed range', () => {
    for (const env of [
      { SVC_CAPTCHA_MATH_MIN: '1', SVC_CAPTCHA_MATH_MAX: '9' },
      { SVC_CAPTCHA_MATH_MIN: '50', SVC_CAPTCHA_MATH_MAX: '40' },
    ]) {
      let problems: readonly string[] = [];
      try {
        loadConfig({ env: { APP_PROFILE: 'test', ...env } });
      } catch (e) {
        assert.ok(e instanceof ConfigError);
        problems = e.problems;
      }
      assert.equal(problems.length, 1, JSON.stringify(env));
      assert.match(problems[0] ?? '', /svc\.captcha\.math-min \(SVC_CAPTCHA_MATH_MIN\).*svc\.captcha\.math-max \(SVC_CAPTCHA_MATH_MAX\)/);
    }
    assert.equal(testConfig({ 'svc.captcha.math-min': 0, 'svc.captcha.math-max': 50 }).captcha.mathMax, 50, '0..50 (0.9996 %) is accepted');
    assert.throws(() => new SvgCaptchaGenerator({ min: 1, max: 9 }), /odds/);
  });
});
