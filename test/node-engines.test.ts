import { readFileSync } from 'node:fs';
import semver from 'semver';
import { expect, it } from 'vitest';

interface PackageEntry {
  version?: string;
  engines?: { node?: string };
}

const project = JSON.parse(readFileSync('package.json', 'utf8')) as { engines: { node: string } };
const lock = JSON.parse(readFileSync('package-lock.json', 'utf8')) as { packages: Record<string, PackageEntry> };

/** The lowest Node of each line the project names: "^20.19.0 || ^22.13.0 || >=24" gives 20.19.0, 22.13.0 and 24.0.0. */
const lowestNodes = new semver.Range(project.engines.node).set.map(
  (comparators) => semver.minVersion(comparators.map((comparator) => comparator.value).join(' '))!.version,
);

it('every package of the lock accepts the lowest Node of each line package.json names, so npm ci warns of no engine', () => {
  const refusals: string[] = [];
  for (const [path, entry] of Object.entries(lock.packages)) {
    const wanted = entry.engines?.node;
    if (path === '' || !wanted) continue;
    for (const node of lowestNodes) {
      if (!semver.satisfies(node, wanted)) refusals.push(`${path.replace(/^.*node_modules\//, '')}@${entry.version} wants Node ${wanted}, not ${node}`);
    }
  }
  expect(refusals).toEqual([]);
});

it('the README names the same lowest Node', () => {
  const [lowest] = lowestNodes;
  expect(readFileSync('README.md', 'utf8')).toContain(`Needs Node.js ${semver.major(lowest!)}.${semver.minor(lowest!)} or newer`);
});
