// What the API connectors (Eventbrite, Meetup, Ticketmaster, Socrata, CKAN, Gancio, Mobilizon)
// share: reading their config, reaching the provider, checking its status, reading its JSON
// answer, and picking values out of that JSON.
import type { z } from 'zod';
import { SourceError, type CandidateEvent, type ConnectorContext, type ConnectorResult, type FetchResult, type SafeFetchInit, type SourceIssue } from '../ingestion.types.ts';
import { createRunNotes, SKIP } from '../run-notes.ts';

/** A JSON object as the connectors read it: any field may be missing or of another type. */
export type Json = Record<string, unknown>;

/** The value if it is a JSON object (not null, not an array). */
export const rec = (v: unknown): Json | undefined => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined);
/** The value if it is an array, else an empty one. */
export const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
/** A non-blank string, trimmed. */
export const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v.trim() : undefined);
/** A finite number, or a string that holds one. */
export const num = (v: unknown): number | undefined => {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() ? Number(v) : NaN;
  return Number.isFinite(n) ? n : undefined;
};

/** Validates a connector's config, naming the connector and the first bad field. */
export function readConfig<S extends z.ZodType>(schema: S, input: Record<string, unknown>, connector: string): z.infer<S> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new SourceError(`${connector} config: ${issue?.path.join('.') || '(root)'} ${issue?.message ?? 'is invalid'}`);
}

/** The value at a path inside a config, or undefined where the path leaves its objects. */
function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  return path.reduce<unknown>((v, key) => (v !== null && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[key] : undefined), input);
}

/**
 * The first problem of a config against the schema its connector reads it with, as the admin API
 * says it (`source` is "an Eventbrite source"): "config.token is required for an Eventbrite source",
 * "config.dataset must be a dataset id such as ydr8-5enu". A blank value counts as missing.
 */
export function configIssue(schema: z.ZodType, input: Record<string, unknown>, source: string): SourceIssue | undefined {
  const parsed = schema.safeParse(input);
  if (parsed.success) return undefined;
  const issue = parsed.error.issues[0]!;
  const path = ['config', ...issue.path.map(String)].join('.');
  const value = valueAt(input, issue.path);
  // A refinement (organizerId or venueId) says itself what is missing.
  if (issue.code !== 'custom' && (value === undefined || value === null || (typeof value === 'string' && !value.trim()))) return { path, message: `${path} is required for ${source}` };
  return { path, message: /^must /.test(issue.message) ? `${path} ${issue.message}` : `${path}: ${issue.message}` };
}

/**
 * An API connector's URL: `required` says what it is when the connector cannot do without one; an
 * API is asked over http or https (a webcal link is read as https only by the feed connectors).
 */
export function apiUrlIssue(url: string | null, source: string, required?: string): SourceIssue | undefined {
  if (!url) return required ? { path: 'url', message: `url is required for ${source}: ${required}` } : undefined;
  if (!/^https?:/i.test(url)) return { path: 'url', message: `url: only http and https addresses can be read by ${source}` };
  return undefined;
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

/** What a provider's body says about a failure, besides the HTTP status. */
export interface ProviderFailure {
  /** The provider's own words, shown after the status. */
  reason?: string;
  /** The body says the credentials were refused (a GraphQL error code, say), whatever the status. */
  denied?: boolean;
  /** The body says the caller is rate limited, whatever the status. */
  rateLimited?: boolean;
  /** The status to name for refused credentials when the body gives its own (Mobilizon's status_code). */
  deniedStatus?: number;
}

/** ": reason" (at most 200 characters of it), or nothing without a reason. */
export const reasonSuffix = (reason: string | undefined): string => (reason ? `: ${reason.slice(0, 200)}` : '');

/** Throws a SourceError naming the provider and the status unless the answer is a success. */
export function checkStatus(provider: string, status: number, failure: ProviderFailure = {}): void {
  const suffix = reasonSuffix(failure.reason);
  if (status === 401 || status === 403 || failure.denied) throw new SourceError(`credentials refused by ${provider} (HTTP ${failure.deniedStatus ?? status}${suffix})`);
  if (status === 429 || failure.rateLimited) throw new SourceError(`rate limited by ${provider} (HTTP ${status}${suffix})`);
  if (status < 200 || status > 299) throw new SourceError(`${provider} answered HTTP ${status}${suffix}`);
}

export interface RequestJsonOptions extends SafeFetchInit {
  /** Reads the provider's account of a failure out of its body (parsed JSON, or undefined). */
  failure?: (body: unknown) => ProviderFailure;
  /** Added to the malformed-JSON message: a hint at what a wrong source URL looks like. */
  notJsonHint?: string;
}

/**
 * Asks a provider's API for JSON (Accept: application/json unless the headers say otherwise):
 * an unreachable provider, a refused or failed status, or a body that is not JSON becomes a
 * SourceError naming the provider.
 */
export async function requestJson(ctx: ConnectorContext, provider: string, url: string, options: RequestJsonOptions = {}): Promise<unknown> {
  const { failure, notJsonHint = '', ...init } = options;
  const res = await fetchApi(ctx, provider, url, { ...init, headers: { accept: 'application/json', ...init.headers } });
  const { json, parsed } = readJson(res);
  checkStatus(provider, res.status, failure?.(json));
  if (!parsed) throw new SourceError(`${provider} sent malformed JSON (HTTP ${res.status})${notJsonHint}`);
  return json;
}

export interface GraphqlRequest {
  query: string;
  variables: Record<string, unknown>;
  /** Extra headers (authorization). */
  headers?: Record<string, string>;
  /** What the provider's first GraphQL error (if any) says beyond its message: refused credentials, rate limiting. */
  failure?: (error: Json | undefined) => Omit<ProviderFailure, 'reason'>;
  notJsonHint?: string;
  /** Whether data that came with an error still answers the query (else the error is thrown). */
  answered: (data: Json) => boolean;
}

/**
 * POSTs a GraphQL query and returns its data; the first GraphQL error's message is the reason
 * named by a failed status, or by a "GraphQL error" when the data does not answer the query.
 */
export async function requestGraphql(ctx: ConnectorContext, provider: string, endpoint: string, request: GraphqlRequest): Promise<Json> {
  const firstError = (body: unknown) => rec(arr(rec(body)?.errors)[0]);
  const body = rec(
    await requestJson(ctx, provider, endpoint, {
      method: 'POST',
      headers: { ...request.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ query: request.query, variables: request.variables }),
      failure: (json) => ({ ...request.failure?.(firstError(json)), reason: str(firstError(json)?.message) }),
      notJsonHint: request.notJsonHint,
    }),
  );
  const reason = str(firstError(body)?.message);
  const data = rec(body?.data);
  if (!data || (reason && !request.answered(data))) throw new SourceError(`${provider} GraphQL error${reasonSuffix(reason) || ': no data'}`);
  return data;
}

/**
 * What one API run keeps: its candidates by the provider's id (a record met again on a later page
 * is the same event) and notes of what it could not use, told to the admin on the run.
 */
export function createApiRun() {
  const found = new Map<string, CandidateEvent>();
  const notes = createRunNotes();
  return {
    /** Keeps a candidate unless its id was met already. */
    keep(candidate: CandidateEvent) {
      if (!found.has(candidate.externalId)) found.set(candidate.externalId, candidate);
    },
    /** A record that gave no candidate (no id, title or start), noted with what names it. */
    unreadable(raw: unknown) {
      const r = rec(raw);
      notes.add('skipped', SKIP.incomplete, str(r?.name) ?? str(rec(r?.name)?.text) ?? str(r?.title) ?? str(r?.id) ?? (typeof r?.id === 'number' ? String(r.id) : undefined));
    },
    /** The run stopped at a page limit while the provider had more: those events were not read. */
    pageLimit(pages: number, reason = `had been read when the run reached its page limit (${pages} pages); the source lists more, not read this run`) {
      notes.addAll([{ kind: 'unread', reason, count: found.size, examples: [] }]);
    },
    result: (): ConnectorResult => ({ candidates: [...found.values()], notes: notes.list() }),
  };
}
