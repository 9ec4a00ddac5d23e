// The connector registry. Each connector lives in `connectors/<id>.connector.ts` and exports
// `<id>Connector`; add it here to make it available to the pipeline.

import type { Connector, ConnectorId } from '../ingestion.types.ts';
import { ckanConnector } from './ckan.connector.ts';
import { csvConnector } from './csv.connector.ts';
import { eventbriteConnector } from './eventbrite.connector.ts';
import { gancioConnector } from './gancio.connector.ts';
import { icalConnector } from './ical.connector.ts';
import { jsonldConnector } from './jsonld.connector.ts';
import { meetupConnector } from './meetup.connector.ts';
import { mobilizonConnector } from './mobilizon.connector.ts';
import { rssConnector } from './rss.connector.ts';
import { socrataConnector } from './socrata.connector.ts';
import { ticketmasterConnector } from './ticketmaster.connector.ts';

export const CONNECTORS: Record<ConnectorId, Connector> = {
  ical: icalConnector,
  rss: rssConnector,
  jsonld: jsonldConnector,
  csv: csvConnector,
  eventbrite: eventbriteConnector,
  meetup: meetupConnector,
  ticketmaster: ticketmasterConnector,
  socrata: socrataConnector,
  ckan: ckanConnector,
  gancio: gancioConnector,
  mobilizon: mobilizonConnector,
};

/** The connector for an id, or undefined when none is registered. */
export function getConnector(id: ConnectorId): Connector | undefined {
  return CONNECTORS[id];
}
