// What the API connectors (Eventbrite, Meetup, Ticketmaster, Socrata, CKAN, Gancio, Mobilizon)
// share: reading their config, reaching the provider, and reading its JSON answer.
import type { z } from 'zod';
import { SourceError, type ConnectorContext, type FetchResult } from '../ingestion.types.ts';

/** Validates a connector's config, naming the connector and the first bad field. */
export function readConfig<S extends z.ZodType>(schema: S, input: Record<string, unknown>, connector: string): z.infer<S> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new SourceError(`${connector} config: ${issue?.path.join('.') || '(root)'} ${issue?.message ?? 'is invalid'}`);
}

/** Fetches from a provider's API; a network failure becomes a SourceError naming the provider. */
export async function fetchApi(ctx: ConnectorContext, provider: string, ...args: Parameters<ConnectorContext['fetch']>): Promise<FetchResult> {
  try {
    return await ctx.fetch(...args);
  } catch (err) {
    if (err instanceof SourceError) throw err;
    throw new SourceError(`${provider} could not be reached: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** The answer's JSON, if it is JSON: callers report a bad body after looking at the status. */
export function readJson(res: FetchResult): { json: unknown; parsed: boolean } {
  try {
    return { json: JSON.parse(res.text()), parsed: true };
  } catch {
    return { json: undefined, parsed: false };
  }
}
