// Whole-process measurement: wall time (median of runs) and peak resident memory, with GNU time when present.
import {spawnSync} from 'node:child_process'
import {existsSync} from 'node:fs'

const gnuTime = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined

/** Run `command` (argv array) `runs` times after one warm-up; median wall ms and max peak RSS in MB. */
export function measure(command, {runs = 10, cwd, env} = {}) {
  const walls = []
  let peak = 0
  for (let index = -1; index < runs; index++) {
    const argv = gnuTime ? [gnuTime, '-f', '__rss=%M', ...command] : command
    const start = process.hrtime.bigint()
    const result = spawnSync(argv[0], argv.slice(1), {cwd, env: {...process.env, ...env}, encoding: 'utf8', maxBuffer: 1 << 30})
    const wall = Number(process.hrtime.bigint() - start) / 1e6
    if (result.error) throw result.error
    const rss = /__rss=(\d+)/.exec(result.stderr ?? '')
    if (index < 0) continue
    walls.push(wall)
    if (rss) peak = Math.max(peak, Number(rss[1]) / 1024)
  }
  walls.sort((a, b) => a - b)
  return {wall: walls[Math.floor(walls.length / 2)], peak: gnuTime ? peak : undefined}
}

/** Format a row of the README's tables. */
export function row(name, result, anchor) {
  const ratio = anchor ? ` (${(result.wall / anchor.wall).toFixed(2)}x)` : ''
  const memory = result.peak === undefined ? 'n/a' : `${result.peak.toFixed(0)} MB`
  return `| ${name} | ${result.wall.toFixed(0)} ms${ratio} | ${memory} |`
}
