/** Unwrapping the `Either`s of the pure settings functions, with a readable failure. */
// @ts-nocheck

import * as Either from "effect/Either"

export const left = <A, E>(e: Either.Either<A, E>): E => {
  if (Either.isRight(e)) throw new Error(`expected Left, got ${JSON.stringify(e.right)}`)
  return e.left
}

export const right = <A, E>(e: Either.Either<A, E>): A => {
  if (Either.isLeft(e)) throw new Error(`expected Right, got ${String((e.left as { message?: string }).message ?? e.left)}`)
  return e.right
}
