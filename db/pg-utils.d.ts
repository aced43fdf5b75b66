/** pg's own helpers (`pg/lib/utils`), which @types/pg does not describe: only what db/pipelined.ts uses. */
declare module 'pg/lib/utils.js' {
  /** A JavaScript value as pg sends it for a parameter. */
  export function prepareValue(value: unknown): unknown;
  const utils: { prepareValue: typeof prepareValue };
  export default utils;
}
