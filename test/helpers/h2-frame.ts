/** One raw HTTP/2 frame (RFC 9113 §4.1), for the hostile h2c servers tests write byte by byte. */
export function h2Frame(type: number, flags: number, stream: number, payload: Buffer): Buffer {
  const head = Buffer.alloc(9);
  head.writeUIntBE(payload.length, 0, 3);
  head[3] = type;
  head[4] = flags;
  head.writeUInt32BE(stream, 5);
  return Buffer.concat([head, payload]);
}
