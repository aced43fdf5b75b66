import { readdirSync, readFileSync } from 'node:fs';

/** CPU time (user + system) of a process and its threads so far, in microseconds, from /proc. */
export function cpuMicrosOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name is in parentheses and may hold spaces: count fields after its closing one.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return (ticks / 100) * 1e6;
  } catch {
    return 0; // the process ended: its time is no longer counted
  }
}

/** The process and every process below it (PostgreSQL's backends, nginx's workers). */
export function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
    } catch {
      // gone already
    }
  }
  const tree: number[] = [];
  const visit = (pid: number) => {
    tree.push(pid);
    for (const child of children.get(pid) ?? []) visit(child);
  };
  visit(root);
  return tree;
}

/** Named groups of processes whose CPU time is read before and after a measured load. */
export type CpuGroups = Record<string, () => number[]>;

/** Each group's CPU time so far, in microseconds. */
export const cpuOf = (groups: CpuGroups): Record<string, number> =>
  Object.fromEntries(Object.entries(groups).map(([name, pids]) => [name, pids().reduce((sum, pid) => sum + cpuMicrosOf(pid), 0)]));
