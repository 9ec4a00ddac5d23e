// The parse sandbox's child process (started by sandbox.ts with tsx and a heap limit):
// receives { id, kind, input }, answers { id, ok, value | message }. Everything a parser throws
// is reported back, never thrown; parsers are loaded on first use to keep startup short.

import { SourceError } from '../ingestion.types.ts';
import type { ParseOutput } from './common.ts';
import type { CsvParseInput, CsvResult } from './csv.parse.ts';
import type { FeedParseInput } from './feed.parse.ts';
import type { IcalParseInput } from './ical.parse.ts';
import type { JsonLdParseInput } from './jsonld.parse.ts';

/** Each parse kind: what goes into the sandbox and what comes back. */
export interface ParseJobs {
  ical: { input: IcalParseInput; output: ParseOutput };
  feed: { input: FeedParseInput; output: ParseOutput };
  jsonld: { input: JsonLdParseInput; output: ParseOutput };
  csv: { input: CsvParseInput; output: CsvResult };
}

type Handler<K extends keyof ParseJobs> = (input: ParseJobs[K]['input']) => ParseJobs[K]['output'];

const loaders: { [K in keyof ParseJobs]: () => Promise<Handler<K>> } = {
  ical: async () => (await import('./ical.parse.ts')).parseIcal,
  feed: async () => (await import('./feed.parse.ts')).parseFeed,
  jsonld: async () => (await import('./jsonld.parse.ts')).parseJsonLd,
  csv: async () => (await import('./csv.parse.ts')).parseCsvInput,
};

type Message = { id: number; kind: keyof ParseJobs; input: unknown };

async function handle(msg: Message, send: (m: unknown) => void): Promise<unknown> {
  const load = loaders[msg.kind] as (() => Promise<(input: unknown) => unknown>) | undefined;
  if (!load) throw new SourceError(`unknown parse kind ${String(msg.kind)}`);
  const parse = await load();
  // The time limit runs from here (loading a parser the first time is not the input's fault);
  // one turn of the event loop lets the message leave before the parse blocks it.
  send({ id: msg.id, started: true });
  await new Promise((resolve) => setImmediate(resolve));
  return parse(msg.input);
}

if (process.send) {
  const send = process.send.bind(process);
  process.on('message', (msg: Message) => {
    handle(msg, send).then(
      (value) => send({ id: msg.id, ok: true, value }),
      (err: unknown) => {
        const message = err instanceof SourceError ? err.message : `could not parse the source: ${err instanceof Error ? err.message : String(err)}`;
        send({ id: msg.id, ok: false, message });
      },
    );
  });
  // The server went away: so does its parser.
  process.on('disconnect', () => process.exit(0));
  send({ ready: true });
}
