/** See seeded-random.js. */
export function seededRandom(seed: number): () => number;
