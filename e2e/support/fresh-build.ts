import { requireFreshBuild } from '../../scripts/build-freshness';

/** Playwright's global setup: the browser tests run the one build of `npm run build`, refusing a missing or stale one. */
export default function freshBuild(): void {
  requireFreshBuild('web');
  requireFreshBuild('server');
}
