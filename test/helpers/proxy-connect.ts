/** A `CONNECT` sent to a proxy on 127.0.0.1, and everything it answered until it closed the connection. */
import { connect } from 'node:net';

export function connectAnswer(proxyPort: number, target: string): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const socket = connect(proxyPort, '127.0.0.1', () => socket.write(`CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n\r\n`));
    let text = '';
    socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
    socket.on('end', () => {
      socket.end();
      resolve(text);
    });
    socket.on('error', reject);
  });
}
