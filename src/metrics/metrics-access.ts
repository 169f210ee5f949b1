// Who may read /metrics: anyone unless CONSIGNA_METRICS_TOKEN is set, then only a bearer of
// it. Compared in constant time, over digests so that the length leaks nothing either.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Config } from '../config/config.ts';

const digest = (text: string) => createHash('sha256').update(text).digest();

export function metricsAuthorized(config: Pick<Config, 'metrics'>, authorization: string | undefined): boolean {
  const token = config.metrics.token;
  if (token === undefined) return true;
  const presented = /^Bearer (\S+)$/.exec(authorization ?? '')?.[1] ?? '';
  return timingSafeEqual(digest(presented), digest(token));
}
