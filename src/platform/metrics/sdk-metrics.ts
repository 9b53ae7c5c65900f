import { deadline, raceSignal } from '../abort/deadline';

/**
 * The Temporal SDK's Prometheus text, read from its exporter (installTemporalRuntime) to be appended to
 * the worker's /metrics. An exporter that does not answer leaves a comment instead of failing the scrape:
 * the service's own metrics matter more than the SDK's.
 */
export function sdkMetricsReader(url: string, timeoutMs = 1_000): () => Promise<string> {
  return async () => {
    const scrape = deadline(timeoutMs);
    try {
      const res = await raceSignal(fetch(url, { signal: scrape.signal }), scrape.signal);
      if (!res.ok) return `# Temporal SDK metrics unavailable: HTTP ${res.status}\n`;
      return await raceSignal(res.text(), scrape.signal);
    } catch (err) {
      return `# Temporal SDK metrics unavailable: ${err instanceof Error ? err.message : String(err)}\n`;
    } finally {
      scrape.dispose();
    }
  };
}
