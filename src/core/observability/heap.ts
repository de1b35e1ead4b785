import v8 from 'node:v8';

/**
 * How far V8 lets the heap grow past what the last full collection kept before it collects again.
 * V8's own heuristics allow up to 4× under a high allocation rate: under load the service's heap
 * held ~55 MB of live objects and grew to ~185 MB of garbage-laden heap (RSS 234–274 MB). A
 * growth factor of 1.5 (`--heap-growing-percent=50`, read by V8 at each collection, so it can be
 * set at run time) kept the RSS at 179–187 MB for about 10% more of the service's CPU per request
 * (more full collections; docs/scaling.md, "Memory and start-up"). 0 leaves V8's heuristics alone.
 */
export function limitHeapGrowth(percent: number): void {
  if (percent > 0) v8.setFlagsFromString(`--heap-growing-percent=${percent}`);
}
