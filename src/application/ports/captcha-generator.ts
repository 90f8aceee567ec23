export type CaptchaType = 'math' | 'text';

/** Draws a captcha: the answer to keep server-side and the SVG image to show. */
export interface CaptchaGenerator {
  create(type: CaptchaType): { readonly answer: string; readonly svg: string };
}
