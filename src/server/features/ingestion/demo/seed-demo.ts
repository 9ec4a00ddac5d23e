import { DEMO_SOURCES } from './demo-fetch.ts';
import type { IngestionService } from '../ingestion.service.ts';
import type { SourcesRepository } from '../sources.repository.ts';

/**
 * On an empty database, adds the demo city's sources (marked as demo) and runs each once
 * through the real pipeline, so a new install shows a living city. Returns the runs' summaries.
 */
export async function seedDemoIfEmpty(deps: { sources: SourcesRepository; ingestion: IngestionService }) {
  if ((await deps.sources.list()).length > 0) return [];
  const results = [];
  for (const def of DEMO_SOURCES) {
    const source = await deps.sources.insert({ ...def, isDemo: true });
    results.push({ name: source.name, ...(await deps.ingestion.runSource(source.id, 'seed')) });
  }
  return results;
}
