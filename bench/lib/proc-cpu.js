/**
 * CPU time from Linux's /proc/PID/stat (proc(5)), in ms: on a shared machine a steadier figure
 * than wall time. Times there are in clock ticks of 1/100 s (USER_HZ, `getconf CLK_TCK`), so a
 * single reading is coarse; means over many runs, or long runs, are not. NaN where there is
 * no /proc (macOS, Windows).
 */
import { readFileSync } from 'node:fs';

const TICK_MS = 10;

/** The fields after the command name (which may hold spaces and parentheses): [0] is the state, field 3. */
function statFields(pid) {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return text.slice(text.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/** User + system CPU time a process has used so far (fields 14 and 15, utime and stime). */
export function processCpuMs(pid) {
  const fields = statFields(pid);
  return fields ? (Number(fields[11]) + Number(fields[12])) * TICK_MS : NaN;
}

/**
 * User + system CPU time of this process's children that have exited and been waited for
 * (fields 16 and 17, cutime and cstime): read before and after a child runs, the difference is
 * that child's (and its own waited-for children's).
 */
export function reapedChildrenCpuMs() {
  const fields = statFields('self');
  return fields ? (Number(fields[13]) + Number(fields[14])) * TICK_MS : NaN;
}
