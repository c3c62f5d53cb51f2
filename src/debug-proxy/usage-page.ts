/** The page a client gets when it talks to the proxy as if it were the server (origin-form `GET /path`). */
export function notProxyRequestPage(method: string, target: string, address: string): string {
  return [
    `reqflow proxy: "${method} ${target.slice(0, 200)}" is not a proxy request.`,
    `This is a forwarding proxy: send requests through it with their full URL, not to it. For example:`,
    `  curl -x ${address} http://example.com/`,
    `  HTTP_PROXY=${address} HTTPS_PROXY=${address} your-app`,
    `  reqflow send -x ${address} http://example.com/`,
    '',
  ].join('\n');
}
