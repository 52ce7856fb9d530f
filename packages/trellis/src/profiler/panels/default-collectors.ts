import type { DataCollector } from '../data-collector.ts';
import { defaultPanels } from './default-panels.ts';

/** The collectors every profile gets, in panel order (the request's first: it finds the secrets). */
export const defaultCollectors: readonly DataCollector[] = defaultPanels.flatMap((panel) => (panel.collector ? [panel.collector] : []));
