/**
 * `pipe start --workers <n|auto>`: n processes on one port (node:cluster; the primary hands out connections). The
 * primary only supervises: it prints one `Serving on …` line once every worker listens, starts a new worker for one
 * that dies, and on SIGTERM or SIGINT stops them all gracefully and exits 0. A worker that fails before it listens
 * (a taken port, a project with errors) said why on stderr; the primary then stops the others and exits 1, rather
 * than restarting a worker that cannot start. Only the first worker runs the events relay (`APIPE_RELAY`).
 */
import cluster, {type Worker} from 'node:cluster'
import {availableParallelism} from 'node:os'
import {listenUrl} from './listen-url.js'
import type {ServeOutput} from './serve.js'

/** The worker count of `--workers`: a whole number from 1, or `auto` (one per core). */
export function workerCount(value: string): number | undefined {
  if (value === 'auto') return availableParallelism()
  return /^[1-9]\d{0,2}$/.test(value) ? Number(value) : undefined
}

/** Run `count` workers of this same command; resolves to the exit code once they are stopped. */
export function superviseWorkers(context: ServeOutput, count: number): Promise<number> {
  return new Promise((resolve) => {
    let stopping = false
    let failed = false
    let announced = false
    let started = 0
    const relays = new Map<Worker, string>()
    const fork = (relay: string) => {
      const worker = cluster.fork({APIPE_RELAY: relay, APIPE_WORKER: '1'})
      relays.set(worker, relay)
      let listened = false
      worker.on('listening', (address) => {
        listened = true
        // Said once: a replaced worker rejoins silently.
        if (++started === count && !announced) context.stdout.write(`Serving on ${listenUrl(address.address ?? '0.0.0.0', address.port)} (${count} workers)\n`)
        if (started === count) announced = true
      })
      worker.on('exit', (code, signal) => {
        relays.delete(worker)
        if (!stopping && listened) {
          context.stderr.write(`A worker stopped (${signal ?? `exit ${code}`}); starting another\n`)
          started--
          fork(relay)
          return
        }
        if (!stopping) {
          // It could not start: another would not either.
          stopping = true
          failed = true
          for (const other of relays.keys()) other.process.kill('SIGTERM')
        }
        if (relays.size === 0) resolve(failed ? 1 : 0)
      })
    }
    for (let index = 0; index < count; index++) fork(index === 0 ? '1' : '0')
    const stop = () => {
      if (stopping) return
      stopping = true
      for (const worker of relays.keys()) worker.process.kill('SIGTERM')
      if (relays.size === 0) resolve(0)
    }
    process.on('SIGTERM', stop)
    process.on('SIGINT', stop)
  })
}
