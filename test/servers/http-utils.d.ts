import type { IncomingMessage, Server } from 'node:http';
export function readBody(req: IncomingMessage): Promise<string>;
export function listenOnLoopback(server: Server, port?: number): Promise<number>;
