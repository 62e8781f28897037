/** Where a server listening on `host` and `port` is reached: `localhost` for every interface, else the host itself. */
export function listenUrl(host: string, port: number): string {
  const where = host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host
  return `http://${where}:${port}`
}
