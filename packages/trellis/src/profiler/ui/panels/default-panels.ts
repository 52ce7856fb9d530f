import { apiPanel } from './api-panel.ts';
import { configPanel } from './config-panel.ts';
import { dbPanel } from './db-panel.ts';
import { eventsPanel } from './events-panel.ts';
import { exceptionPanel } from './exception-panel.ts';
import { httpClientPanel } from './http-client-panel.ts';
import { logsPanel } from './logs-panel.ts';
import type { Panel } from './panel.ts';
import { requestPanel } from './request-panel.ts';
import { responsePanel } from './response-panel.ts';
import { routerPanel } from './router-panel.ts';
import { securityPanel } from './security-panel.ts';
import { timePanel } from './time-panel.ts';

/** The menu of the profile page, in order. */
export const defaultPanels: readonly Panel[] = [requestPanel, responsePanel, timePanel, exceptionPanel, logsPanel, dbPanel, securityPanel, routerPanel, apiPanel, httpClientPanel, eventsPanel, configPanel];
