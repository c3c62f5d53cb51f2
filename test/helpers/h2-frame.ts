/** One raw HTTP/2 frame (RFC 9113 §4.1), for the hostile h2c servers tests write byte by byte. */
export function h2Frame(type: number, flags: number, stream: number, payload: Buffer): Buffer {
  const head = Buffer.alloc(9);
  head.writeUIntBE(payload.length, 0, 3);
  head[3] = type;
  head[4] = flags;
  head.writeUInt32BE(stream, 5);
  return Buffer.concat([head, payload]);
}

/** A frame as read off the wire: its type, flags, stream and payload. */
export interface H2FrameRead {
  type: number;
  flags: number;
  stream: number;
  payload: Buffer;
}

/**
 * Reads a client's HTTP/2 connection frame by frame: skips its 24-byte preface, acknowledges
 * each SETTINGS (as every server must), and hands each whole frame to `onFrame`, in order.
 */
export function readH2Frames(socket: import('node:net').Socket, onFrame: (frame: H2FrameRead) => void): void {
  let buffered = Buffer.alloc(0);
  let preface = false;
  socket.on('data', (chunk: Buffer) => {
    buffered = Buffer.concat([buffered, chunk]);
    if (!preface) {
      if (buffered.length < 24) return;
      preface = true;
      buffered = buffered.subarray(24);
    }
    // Bounded: each pass takes one whole frame off the buffer.
    while (buffered.length >= 9) {
      const length = buffered.readUIntBE(0, 3);
      if (buffered.length < 9 + length) break;
      const frame = { type: buffered[3] ?? 0, flags: buffered[4] ?? 0, stream: buffered.readUInt32BE(5), payload: buffered.subarray(9, 9 + length) };
      buffered = buffered.subarray(9 + length);
      if (frame.type === 4 && (frame.flags & 1) === 0) socket.write(h2Frame(4, 1, 0, Buffer.alloc(0)));
      onFrame(frame);
    }
  });
}
