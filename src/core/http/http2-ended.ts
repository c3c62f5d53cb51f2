/**
 * Finds an HTTP/2 session that nghttp2 ended without telling Node. To some connection errors of
 * the server's (a DATA frame over the maximum frame size, DATA on stream 0, a HEADERS frame over
 * it) nghttp2 answers with a GOAWAY of its own, then neither reads nor writes again, and Node
 * emits nothing: the session says it is open and its streams wait — until `--timeout`, or, in a
 * single run, until the event loop empties (in-flight.ts). Where other requests keep the loop
 * alive (`reqflow test --jobs`, `--watch`, the UI) that was the time-out.
 *
 * No state Node shows tells an ended session from a quiet one, but a frame submitted to it never
 * leaves: a live session writes a PING at the next turn of the event loop, unless its socket is
 * still writing what came before. So, only while the session has streams open, and only after
 * the server has sent nothing for a second, one PING (once per silence: an answer to it is no
 * end of the silence, so a quiet server is not pinged again and again — gRPC servers count
 * pings); if at the next look not a byte has been written since, none waits in the socket and
 * nghttp2 still holds a frame, nghttp2 has ended the session. Two looks at counters a second
 * per session with streams open, nothing per chunk: a healthy connection's data path pays nothing
 * (docs/performance.md, 27 November). A single run meets the end sooner, when the event loop
 * empties: a session held open for its streams whose socket is idle has stopped reading, which
 * nghttp2 asks only of a session it ended (`StreamCount` in http2.ts).
 */
import type { ClientHttp2Session } from 'node:http2';
import { waitingToBeWritten, type SocketCounters } from './http2-socket.js';

/** How often a session with streams open is looked at. */
const LOOK_EVERY_MS = 500;
/** Looks without a byte from the server before the PING: a second of silence. */
const SILENT_LOOKS = 2;
/** A PING frame: a 9-byte head and 8 bytes of data (RFC 9113 §6.7); its answer is the same size. */
const PING_FRAME_BYTES = 17;

const noop = (): void => undefined;

/** Ends a session nghttp2 ended: its streams fail with this code, worded by network-errors.ts. */
export function endSession(session: ClientHttp2Session): void {
  if (!session.destroyed) session.destroy(Object.assign(new Error('nghttp2 ended the session'), { code: 'REQFLOW_HTTP2_ENDED' }));
}

/**
 * Calls `onEnded` once if nghttp2 ends `session` while this watch runs. Returns the stopper. A
 * session whose socket does not say what waits to be written is not watched: its end is left to
 * the run's guard (in-flight.ts) and `--timeout`.
 */
export function watchForEnd(session: ClientHttp2Session, onEnded: () => void): () => void {
  const socket = session.socket as unknown as SocketCounters;
  if (waitingToBeWritten(socket) === undefined) return noop;
  let read = socket.bytesRead;
  let silentLooks = 0;
  /** One PING per silence: set when it goes, cleared by the server's next bytes. */
  let pinged = false;
  /** `bytesWritten` when the PING was submitted, until it is seen to have left. */
  let pingAt: number | undefined;
  const look = (): void => {
    if (session.destroyed) return stop();
    if (pingAt !== undefined) {
      if (socket.bytesWritten !== pingAt) pingAt = undefined; // it left: the session lives
      else if (waitingToBeWritten(socket) === 0 && (session.state.outboundQueueSize ?? 0) > 0) {
        stop();
        onEnded();
      }
      return; // else the socket is still writing: look again
    }
    if (socket.bytesRead !== read) {
      read = socket.bytesRead;
      silentLooks = 0;
      pinged = false;
      return;
    }
    if (pinged || ++silentLooks < SILENT_LOOKS) return;
    pinged = true;
    const written = socket.bytesWritten;
    const sent = session.ping((error) => {
      // The answer is not the server speaking: the silence goes on, without another PING. Only
      // the answer's own bytes: anything read with it (a frame that ended the session) is speech.
      if (!error) read += PING_FRAME_BYTES;
    });
    if (sent) pingAt = written;
  };
  // Not holding the process open: where nothing else does, the loop's emptying says it first.
  const timer = setInterval(look, LOOK_EVERY_MS).unref();
  function stop(): void {
    clearInterval(timer);
  }
  return stop;
}
