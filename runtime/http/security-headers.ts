/**
 * Security headers from helmet, computed once. The configuration is static (no per-request CSP nonces), so the
 * headers helmet sets are the same for every answer: helmet runs once at start-up against a recording response,
 * and each request gets the recorded headers. (@fastify/helmet rebuilds helmet's middleware on every request; on
 * the read benchmark that was a third of the time of an answer.)
 */
import helmet, {type HelmetOptions} from 'helmet'

/** The headers helmet sets with `options`, by lower-case name. */
export function securityHeaders(options: Readonly<HelmetOptions> = {}): Record<string, string> {
  const headers: Record<string, string> = {}
  const recorder = {
    setHeader(name: string, value: unknown) {
      headers[name.toLowerCase()] = String(value)
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()]
    },
    getHeader(name: string) {
      return headers[name.toLowerCase()]
    }
  }
  helmet(options)({} as never, recorder as never, () => undefined)
  return headers
}
