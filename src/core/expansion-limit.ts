/**
 * How much a text's templates may add to it (the resolver's `{{…}}`, VS Code's `{{$shared …}}`):
 * values that repeat each other (`a={{b}}{{b}}`, `b={{c}}{{c}}`, …: a "billion laughs") or one
 * value of 1 MB named a thousand times would otherwise grow past the longest string V8 holds.
 */
export const MAX_EXPANSION_MIB = 64;
