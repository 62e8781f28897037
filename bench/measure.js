// Whole-process measurement: wall time (median of runs) and peak resident memory, with GNU time when present.
import {spawnSync} from 'node:child_process'
import {existsSync} from 'node:fs'

const gnuTime = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined

/** Run `command` (argv array) once: wall ms and peak RSS in MB (undefined without GNU time). */
function runOnce(command, {cwd, env} = {}) {
  const argv = gnuTime ? [gnuTime, '-f', '__rss=%M', ...command] : command
  const start = process.hrtime.bigint()
  const result = spawnSync(argv[0], argv.slice(1), {cwd, env: {...process.env, ...env}, encoding: 'utf8', maxBuffer: 1 << 30})
  const wall = Number(process.hrtime.bigint() - start) / 1e6
  if (result.error) throw result.error
  const rss = /__rss=(\d+)/.exec(result.stderr ?? '')
  return {wall, peak: rss ? Number(rss[1]) / 1024 : undefined}
}

/**
 * Run each job (`{command, cwd?, env?}`) `runs` times after one warm-up each, taking turns, so that a machine whose
 * speed drifts during the run slows every job alike; per job, the median wall ms and the max peak RSS in MB.
 */
export function measureTogether(jobs, {runs = 10} = {}) {
  const samples = jobs.map(() => ({walls: [], peak: 0}))
  for (let index = -1; index < runs; index++) {
    jobs.forEach((job, which) => {
      const {wall, peak} = runOnce(job.command, job)
      if (index < 0) return
      samples[which].walls.push(wall)
      if (peak !== undefined) samples[which].peak = Math.max(samples[which].peak, peak)
    })
  }
  return samples.map(({walls, peak}) => {
    walls.sort((a, b) => a - b)
    return {wall: walls[Math.floor(walls.length / 2)], peak: gnuTime ? peak : undefined}
  })
}

/** Run `command` (argv array) `runs` times after one warm-up; median wall ms and max peak RSS in MB. */
export function measure(command, {runs = 10, cwd, env} = {}) {
  return measureTogether([{command, cwd, env}], {runs})[0]
}

/** Format a row of the README's tables. */
export function row(name, result, anchor) {
  const ratio = anchor ? ` (${(result.wall / anchor.wall).toFixed(2)}x)` : ''
  const memory = result.peak === undefined ? 'n/a' : `${result.peak.toFixed(0)} MB`
  return `| ${name} | ${result.wall.toFixed(0)} ms${ratio} | ${memory} |`
}
