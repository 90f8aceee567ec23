/**
 * structured-headers 2.x publishes its types behind package "exports" only, which this project's
 * `moduleResolution: node` does not read; this points the bare name at its CommonJS declarations
 * (the same file Node loads at run time through the "require" export).
 */
declare module 'structured-headers' {
  export * from 'structured-headers/cjs/index.cjs';
}
