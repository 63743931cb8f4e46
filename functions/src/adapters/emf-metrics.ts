import { MetricUnit, Metrics as PowertoolsMetrics } from '@aws-lambda-powertools/metrics';
import { SERVICE_NAME } from '../domain/metrics';
import type { Metrics } from '../domain/ports';

const byNamespace = new Map<string, PowertoolsMetrics>();

/**
 * The Metrics port over Powertools for AWS Lambda's Metrics: counts of one namespace, kept until
 * `flushMetrics` writes them as one embedded-metric-format line per namespace on stdout, which
 * CloudWatch Logs turns into metrics without an API call. A count with dimensions is its own line.
 */
export function emfMetrics(namespace: string): Metrics {
  let metrics = byNamespace.get(namespace);
  if (!metrics) {
    metrics = new PowertoolsMetrics({ namespace, serviceName: SERVICE_NAME });
    byNamespace.set(namespace, metrics);
  }
  const target = metrics;
  return {
    count(name, value, dimensions) {
      if (dimensions) {
        const single = target.singleMetric();
        single.addDimensions(dimensions);
        single.addMetric(name, MetricUnit.Count, value);
      } else {
        target.addMetric(name, MetricUnit.Count, value);
      }
    },
  };
}

/** Writes every namespace's stored counts (nothing when there are none). */
export function flushMetrics(): void {
  for (const metrics of byNamespace.values()) if (metrics.hasStoredMetrics()) metrics.publishStoredMetrics();
}

/** A Lambda handler that flushes the counts of its invocation when it ends, also when it throws. */
export function flushingMetrics<Args extends unknown[], Result>(
  handler: (...args: Args) => Promise<Result>,
): (...args: Args) => Promise<Result> {
  return async (...args) => {
    try {
      return await handler(...args);
    } finally {
      flushMetrics();
    }
  };
}
