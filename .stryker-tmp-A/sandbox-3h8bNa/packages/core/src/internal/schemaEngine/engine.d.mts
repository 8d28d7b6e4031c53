/** What a compiled check answers. */
// @ts-nocheck

export interface Verdict {
  readonly valid: boolean
  readonly errorMessage: string | undefined
}
/** What Ajv needs of a regular expression engine. */
export interface RegExpLike {
  test: (text: string) => boolean
}
/** A pattern as a linear-time matcher (unanchored search, as `RegExp.test`); unsupported syntax matches everything. */
export declare const linearRegExp: (pattern: string) => RegExpLike
/** A value's canonical text: JSON with object keys sorted. */
export declare const canonical: (value: unknown) => string
/** A fresh engine; `compile` never throws (a schema that does not compile accepts everything). */
export declare const makeEngine: () => { readonly compile: (schema: unknown) => (data: unknown) => Verdict }
