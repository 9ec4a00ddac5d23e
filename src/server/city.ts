import { readFileSync } from 'node:fs';
import { CityConfig } from '../contract/city.ts';

/** The demo city (decisions section 8): Portland, Oregon, with approximate neighbourhood centres. */
export const PORTLAND: CityConfig = {
  name: 'Portland',
  timeZone: 'America/Los_Angeles',
  center: { lat: 45.5152, lng: -122.6784 },
  distanceUnit: 'mi',
  locale: 'en-US',
  neighbourhoods: [
    { name: 'Downtown', lat: 45.5152, lng: -122.6784 },
    { name: 'Pearl District', lat: 45.5289, lng: -122.6829 },
    { name: 'Old Town', lat: 45.5241, lng: -122.6717 },
    { name: 'Alberta Arts', lat: 45.559, lng: -122.6454 },
    { name: 'Mississippi', lat: 45.5502, lng: -122.6756 },
    { name: 'Hawthorne', lat: 45.512, lng: -122.6262 },
    { name: 'Division', lat: 45.5048, lng: -122.6257 },
    { name: 'Sellwood', lat: 45.4651, lng: -122.6512 },
    { name: 'St. Johns', lat: 45.5903, lng: -122.7544 },
    { name: 'Kerns', lat: 45.5266, lng: -122.6432 },
    { name: 'Buckman', lat: 45.5171, lng: -122.6521 },
    { name: 'Montavilla', lat: 45.519, lng: -122.5806 },
    { name: 'Lents', lat: 45.4793, lng: -122.5641 },
    { name: 'Hollywood', lat: 45.5352, lng: -122.6206 },
    { name: 'Irvington', lat: 45.5415, lng: -122.6467 },
    { name: 'Nob Hill', lat: 45.5305, lng: -122.6985 },
    { name: 'Goose Hollow', lat: 45.5197, lng: -122.6953 },
    { name: 'South Waterfront', lat: 45.4985, lng: -122.6716 },
    { name: 'Foster-Powell', lat: 45.4956, lng: -122.5955 },
    { name: 'Woodstock', lat: 45.4795, lng: -122.6138 },
  ],
};

/** The city from a JSON file named by CITY_CONFIG, else the demo city. */
export function loadCity(path: string | undefined): CityConfig {
  if (!path) return PORTLAND;
  return CityConfig.parse(JSON.parse(readFileSync(path, 'utf8')));
}
