/// Where the machine's CPU went during a measurement: the server, the database's processes, this
/// load generator, and everything else. On a shared 2-core machine the last one says whether the
/// figures can be trusted at all. Linux /proc only; elsewhere every figure is 0.

import { readdirSync, readFileSync } from 'node:fs'

// USER_HZ: 100 on every Linux architecture Node supports.
const TICKS_PER_SECOND = 100

export type CpuUse = {
  /** CPU seconds per wall-clock second, i.e. cores kept busy. */
  server: number
  /**
   * The part of `server` spent on its main thread: the event loop and the JavaScript it runs. The
   * rest is the server's other threads (where scrypt runs: Tessera's password workers, better-auth's
   * libuv pool; and V8's helpers).
   */
  serverEventLoop: number
  database: number
  loadGenerator: number
  other: number
  /** Cores available. */
  cores: number
}

const read = (path: string): string | undefined => {
  try {
    return readFileSync(path, 'utf8')
  } catch {
    return undefined
  }
}

/** utime, stime, cutime, cstime and the parent pid from /proc/<pid>/stat (or one thread's). */
const procStat = (pid: number, thread?: number) => {
  const text = read(thread === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${thread}/stat`)
  if (!text) return undefined
  // The command name may contain spaces and parentheses; the fields follow the last ')'.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ')
  const field = (n: number) => Number(fields[n - 3] ?? 0)
  return { ppid: field(4), own: field(14) + field(15), children: field(16) + field(17) }
}

/** CPU ticks of a process, its reaped children and its living descendants. */
const treeTicks = (rootPid: number): number => {
  const parents = new Map<number, number>()
  const own = new Map<number, number>()
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    const stat = procStat(Number(entry))
    if (!stat) continue
    parents.set(Number(entry), stat.ppid)
    own.set(Number(entry), stat.own)
  }
  const inTree = (pid: number): boolean => {
    for (let p = pid; p > 1; p = parents.get(p) ?? 0) if (p === rootPid) return true
    return false
  }
  let ticks = procStat(rootPid)?.children ?? 0
  for (const [pid, value] of own) if (inTree(pid)) ticks += value
  return ticks
}

const machineBusyTicks = (): number => {
  const line = read('/proc/stat')?.split('\n', 1)[0] ?? ''
  const [, ...values] = line.trim().split(/\s+/).map(Number)
  const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = values
  return user + nice + system + irq + softirq + steal
}

const ownTicks = (): number => {
  const { user, system } = process.cpuUsage()
  return ((user + system) / 1e6) * TICKS_PER_SECOND
}

/** CPU ticks of a process's main thread alone (Linux numbers it with the process's own pid). */
const mainThreadTicks = (pid: number): number => procStat(pid, pid)?.own ?? 0

export type CpuProbe = { serverPid: number; databasePid: () => number | undefined }

/** Starts measuring; the returned function ends the measurement. */
export const measureCpu = (probe: CpuProbe, cores: number): (() => CpuUse) => {
  const sample = () => {
    const databasePid = probe.databasePid()
    return {
      at: performance.now(),
      machine: machineBusyTicks(),
      server: treeTicks(probe.serverPid),
      serverEventLoop: mainThreadTicks(probe.serverPid),
      database: databasePid ? treeTicks(databasePid) : 0,
      own: ownTicks(),
    }
  }
  const start = sample()
  return () => {
    const end = sample()
    const seconds = (end.at - start.at) / 1000
    const perSecond = (ticks: number) => Math.max(0, ticks / TICKS_PER_SECOND / seconds)
    const server = perSecond(end.server - start.server)
    const serverEventLoop = Math.min(server, perSecond(end.serverEventLoop - start.serverEventLoop))
    const database = perSecond(end.database - start.database)
    const loadGenerator = perSecond(end.own - start.own)
    const machine = perSecond(end.machine - start.machine)
    return {
      server,
      serverEventLoop,
      database,
      loadGenerator,
      other: Math.max(0, machine - server - database - loadGenerator),
      cores,
    }
  }
}

const IDLE_CORES = 0.1
const IDLE_WINDOW_MS = 250
const IDLE_TIMEOUT_MS = 20_000

/**
 * Waits until the process is (almost) idle. autocannon drops its connections at the end of a run
 * while the server may still be hashing the passwords of the requests that were in flight; that
 * leftover work must not eat into the next measurement.
 */
export const waitUntilIdle = async (pid: number): Promise<void> => {
  const deadline = Date.now() + IDLE_TIMEOUT_MS
  let before = procStat(pid)?.own ?? 0
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, IDLE_WINDOW_MS))
    const after = procStat(pid)?.own ?? 0
    const cores = (after - before) / TICKS_PER_SECOND / (IDLE_WINDOW_MS / 1000)
    if (cores < IDLE_CORES) return
    before = after
  }
}
