export interface SseServer {
  url: string;
  /** Every request received, in order. */
  requests: Array<{ method: string; path: string; headers: Record<string, string | string[] | undefined>; body: string }>;
  /** Has `/gated` sent its last event? */
  lastSent(): boolean;
  /** Lets `/gated` send its last event and end. */
  release(): void;
  /** `/ticks` streams still open. */
  openStreams(): number;
  close(): Promise<void>;
}
export function startSseServer(): Promise<SseServer>;
