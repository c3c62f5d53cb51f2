/**
 * fast-check seeds: random on a developer's machine (every run explores new inputs), fixed
 * under CI (a merge is gated on a result that does not depend on the dice). `FC_SEED=n`
 * replays any run; a failure prints the seed and path that reproduce it.
 */
import fc from 'fast-check';

const CI_SEED = 20261122;
const fromEnv = process.env.FC_SEED === undefined ? undefined : Number(process.env.FC_SEED);
const seed = Number.isInteger(fromEnv) ? fromEnv : process.env.CI ? CI_SEED : undefined;
if (seed !== undefined) fc.configureGlobal({ ...fc.readConfigureGlobal(), seed });
