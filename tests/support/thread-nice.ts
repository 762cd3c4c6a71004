/// Nice values of threads, this process's or another's, read from /proc (Linux only).

import { readdirSync, readFileSync } from 'node:fs'

// Field 19 of a stat line. The command name (field 2) may hold spaces; the fields after its
// closing parenthesis do not.
const niceIn = (stat: string): number => Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16])

/** The nice value of one thread of this process (`self` for the calling thread). */
export const niceOfThread = (tid: number | string | 'self'): number =>
  niceIn(readFileSync(tid === 'self' ? '/proc/thread-self/stat' : `/proc/self/task/${tid}/stat`, 'utf8'))

/** The nice value of every thread of this process. */
export const threadNiceValues = (): number[] => readdirSync('/proc/self/task').map(niceOfThread)

/** The nice value of one thread of another process (its main thread's id is the process's). */
export const niceOfProcessThread = (pid: number, tid: number | string): number =>
  niceIn(readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8'))
