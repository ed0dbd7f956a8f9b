// The lab's own HTTP servers (`npm start`'s static server, vite preview and dev) read request
// lines and headers up to MAX_REQUEST_HEADER_BYTES, and answer a longer one with a 431 page that
// says what happened in the lab's words, not the browser's bare error page.
import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { MAX_REQUEST_HEADER_BYTES } from '../core/input/caps';

export const TOO_LONG_PAGE = `<!doctype html><meta charset="utf-8"><title>kernel-lab: link too long</title>
<p>kernel-lab: this link's query is longer than the ${MAX_REQUEST_HEADER_BYTES / 1024} KiB of request the lab's server reads
(docs/input-limits.md). A run query (?op=…&amp;schedule=…) stays far below it; a result travels in a share link's
fragment (#r=…), which is never sent to the server.</p>
`;

export function limitRequestHeaders(server: Server): void {
  // Read by Node's parser for each new connection (the same as createServer's maxHeaderSize option).
  (server as Server & { maxHeaderSize: number }).maxHeaderSize = MAX_REQUEST_HEADER_BYTES;
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    if (!socket.writable) return socket.destroy();
    if (err.code === 'HPE_HEADER_OVERFLOW') {
      const body = Buffer.from(TOO_LONG_PAGE);
      socket.end(`HTTP/1.1 431 Request Header Fields Too Large\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${TOO_LONG_PAGE}`);
      return;
    }
    socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
  });
}
