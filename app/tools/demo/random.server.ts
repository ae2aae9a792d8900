// A small seeded random source, so the same seed always yields the same demo data
// (Math.random cannot be seeded).

export interface Random {
  /** Uniform in [0, 1). */
  next(): number;
  /** Integer in [min, max]. */
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  /** Standard normal deviate. */
  normal(): number;
  /** Log-normal with the given median; sigma is the spread of the underlying normal. */
  logNormal(median: number, sigma: number): number;
  chance(probability: number): boolean;
}

/** mulberry32: 32-bit state, fast, and good enough for synthetic data. */
export function createRandom(seed: number): Random {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const normal = () => {
    // Box–Muller; 1 - next() avoids log(0).
    return Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next());
  };
  return {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    pick: (items) => items[Math.floor(next() * items.length)],
    normal,
    logNormal: (median, sigma) => median * Math.exp(sigma * normal()),
    chance: (probability) => next() < probability,
  };
}

/** An independent stream per concern, so changing one size does not reshuffle the rest. */
export function subSeed(seed: number, stream: number): number {
  let h = (seed ^ Math.imul(stream + 1, 0x9e3779b1)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b) >>> 0;
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35) >>> 0;
  return (h ^ (h >>> 16)) >>> 0;
}

/** Picks from weighted choices in O(log n) after O(n) set-up. */
export function weighted<T>(choices: readonly (readonly [T, number])[]): (random: Random) => T {
  const values = choices.map(([value]) => value);
  const cumulative: number[] = [];
  let total = 0;
  for (const [, weight] of choices) cumulative.push((total += weight));
  return (random) => {
    const target = random.next() * total;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid] > target) hi = mid;
      else lo = mid + 1;
    }
    return values[lo];
  };
}

/**
 * A bijection on [0, 2^bits): distinct indexes give distinct, scattered values.
 * Used to make unique MAC addresses and phone numbers that do not look sequential.
 */
export function scatter(index: number, bits: number, salt: number): number {
  const mask = bits >= 32 ? 0xffffffff : (1 << bits) - 1;
  let x = (index ^ salt) & mask;
  // Odd multipliers and xor-shifts are invertible modulo 2^bits.
  x = Math.imul(x, 0x2c1b3c6d | 1) & mask;
  x ^= x >>> Math.ceil(bits / 2);
  x = Math.imul(x, 0x297a2d39 | 1) & mask;
  x ^= x >>> Math.ceil(bits / 3);
  return x >>> 0;
}
