/** A seeded PRNG, so property tests are random where it matters and the same on every run. */
// @ts-nocheck

export const mulberry32 = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}
export type Rng = () => number
export const int = (rng: Rng, lo: number, hi: number) => lo + Math.floor(rng() * (hi - lo + 1))
export const pick = <A>(rng: Rng, xs: ReadonlyArray<A>): A => xs[Math.floor(rng() * xs.length)]!
