// http-auth ships no types; the digest test server uses this much of it.
declare module 'http-auth' {
  import type { IncomingMessage, ServerResponse } from 'node:http';
  interface Digest {
    check(next: (req: IncomingMessage, res: ServerResponse) => void): (req: IncomingMessage, res: ServerResponse) => void;
  }
  const httpAuth: { digest(options: { realm: string; algorithm?: string; qop?: string; file: string | (() => string) }): Digest };
  export default httpAuth;
}
