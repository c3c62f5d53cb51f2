export interface ReceivedOperation {
  transport: 'http' | 'ws';
  method: string;
  headers: Record<string, string | string[] | undefined>;
  params: { query?: string; operationName?: string | null; variables?: Record<string, unknown> | null; extensions?: unknown };
  connectionParams?: Record<string, unknown>;
}

export interface GraphqlServer {
  url: string;
  port: number;
  /** The bearer token `secret` needs. */
  token: string;
  /** Every operation the server received, in order (HTTP and WebSocket). */
  received: ReceivedOperation[];
  /** Lets the `gated` subscription emit its last value. */
  release(): void;
  isReleased(): boolean;
  close(): Promise<void>;
}

export const TOKEN: string;
export function startGraphqlServer(): Promise<GraphqlServer>;
