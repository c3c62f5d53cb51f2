import { createServer } from 'node:http';
import { createProxy } from 'proxy';
const proxy = createProxy(createServer()); proxy.listen(18777, '127.0.0.1');
const s = createServer((req, res) => res.end('{"ok":true}')); s.listen(18778, '127.0.0.1');
setTimeout(() => process.exit(0), 300000);
